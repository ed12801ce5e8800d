# make fuzz: libFuzzer target for the snapshot reader (clang; not in CI):
#   build/fuzz/fuzz-snapshot [-max_total_time=60] tests/fuzz/corpus-snapshot
FUZZ_CC  ?= clang
FUZZ_SRC := src/snapshot.c src/stats.c src/series.c src/columns.c src/format.c src/trace.c src/trace-topology.c \
            src/tunable.c src/tunable-table.c src/journal.c src/root.c src/device-irq.c

$(BUILD)/fuzz/fuzz-snapshot: tests/fuzz/fuzz-snapshot.c $(FUZZ_SRC) $(GENERATED)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS) -o $@ $< $(FUZZ_SRC) -lm

fuzz: $(BUILD)/fuzz/fuzz-snapshot
	mkdir -p $(BUILD)/fuzz/corpus
	cp tests/fuzz/corpus-snapshot/* $(BUILD)/fuzz/corpus/
	$(BUILD)/fuzz/fuzz-snapshot -max_total_time=$(or $(FUZZ_TIME),60) $(BUILD)/fuzz/corpus
