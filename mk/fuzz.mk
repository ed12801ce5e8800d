# make fuzz: libFuzzer targets for the parsers (clang; not in CI): the
# snapshot reader, and /proc/diskstats, /proc/interrupts and /proc/softirqs.
#   build/fuzz/fuzz-snapshot [-max_total_time=60] tests/fuzz/corpus-snapshot
FUZZ_CC  ?= clang
FUZZ_SRC := src/snapshot.c src/stats.c src/series.c src/columns.c src/format.c src/trace.c src/trace-topology.c \
            src/tunable.c src/tunable-table.c src/journal.c src/root.c src/device-irq.c src/safe-file.c src/diskseq.c

$(BUILD)/fuzz/fuzz-snapshot: tests/fuzz/fuzz-snapshot.c $(FUZZ_SRC) $(GENERATED)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS) -o $@ $< $(FUZZ_SRC) -lm

PROC_FUZZ_SRC := src/source-diskstats.c src/source-cpus.c src/sample.c src/root.c src/device-irq.c src/trace.c \
                 src/trace-topology.c src/readahead.c
$(BUILD)/fuzz/fuzz-procfiles: tests/fuzz/fuzz-procfiles.c $(PROC_FUZZ_SRC) $(GENERATED)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS) -o $@ $< $(PROC_FUZZ_SRC) -lproc2 -lm

fuzz: $(BUILD)/fuzz/fuzz-snapshot $(BUILD)/fuzz/fuzz-procfiles
	mkdir -p $(BUILD)/fuzz/corpus
	cp tests/fuzz/corpus-snapshot/* $(BUILD)/fuzz/corpus/
	$(BUILD)/fuzz/fuzz-snapshot -max_total_time=$(or $(FUZZ_TIME),60) $(BUILD)/fuzz/corpus
	mkdir -p $(BUILD)/fuzz/corpus-procfiles
	cp tests/fuzz/corpus-procfiles/* $(BUILD)/fuzz/corpus-procfiles/
	$(BUILD)/fuzz/fuzz-procfiles -max_total_time=$(or $(FUZZ_TIME),60) $(BUILD)/fuzz/corpus-procfiles

# The journal reader: tests/fuzz/corpus-journal holds valid journals (a unit
# test parses each with nothing rejected).
JOURNAL_FUZZ_SRC := src/journal.c src/safe-file.c
$(BUILD)/fuzz/fuzz-journal: tests/fuzz/fuzz-journal.c $(JOURNAL_FUZZ_SRC)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS) -o $@ $< $(JOURNAL_FUZZ_SRC)

fuzz: fuzz-journal
.PHONY: fuzz-journal
fuzz-journal: $(BUILD)/fuzz/fuzz-journal
	mkdir -p $(BUILD)/fuzz/corpus-journal
	cp tests/fuzz/corpus-journal/* $(BUILD)/fuzz/corpus-journal/
	$(BUILD)/fuzz/fuzz-journal -max_total_time=$(or $(FUZZ_TIME),60) $(BUILD)/fuzz/corpus-journal

# A sweep directory's files (blktune report reads them): fio JSON, sweep.csv,
# sweep.info; the first byte of an input picks the parser.
SWEEP_FUZZ_SRC := src/json-read.c src/sweep-workload.c src/sweep-figure.c src/sweep-csv.c src/sweep-info.c \
                  src/format.c src/root.c
$(BUILD)/fuzz/fuzz-sweep: tests/fuzz/fuzz-sweep.c $(SWEEP_FUZZ_SRC)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS) -o $@ $< $(SWEEP_FUZZ_SRC) -lm

fuzz: fuzz-sweep
.PHONY: fuzz-sweep
fuzz-sweep: $(BUILD)/fuzz/fuzz-sweep
	mkdir -p $(BUILD)/fuzz/corpus-sweep
	cp tests/fuzz/corpus-sweep/* $(BUILD)/fuzz/corpus-sweep/
	$(BUILD)/fuzz/fuzz-sweep -max_total_time=$(or $(FUZZ_TIME),60) $(BUILD)/fuzz/corpus-sweep
