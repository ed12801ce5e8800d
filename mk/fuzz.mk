# make fuzz: libFuzzer targets for the parsers (clang; not in CI), each run
# from its seeds in tests/fuzz/corpus-TARGET (a unit test keeps every seed
# valid). A target is a word in FUZZ_TARGETS and a rule for
# $(BUILD)/fuzz/fuzz-TARGET.
#   make fuzz                      every target, FUZZ_TIME seconds each (60)
#   make fuzz FUZZ_RUNS=10000000   every target, that many executions each
#   build/fuzz/fuzz-snapshot -runs=N build/fuzz/corpus-snapshot
FUZZ_CC    ?= clang
FUZZ_FLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined
FUZZ_TARGETS += snapshot procfiles journal sweep record

# The snapshot reader (and its writer, for the round trip).
FUZZ_SRC := src/snapshot.c src/stats.c src/series.c src/columns.c src/names.c src/format.c src/trace.c \
            src/trace-topology.c src/model.c src/sample.c src/readahead.c \
            src/tunable.c src/tunable-table.c src/journal.c src/root.c src/device-irq.c src/safe-file.c src/diskseq.c \
            src/cgroup-sample.c src/proc-sample.c src/capacity.c
$(BUILD)/fuzz/fuzz-snapshot: tests/fuzz/fuzz-snapshot.c $(FUZZ_SRC) $(GENERATED)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CPPFLAGS) -o $@ $< $(FUZZ_SRC) -lm

# /proc/diskstats, /proc/interrupts and /proc/softirqs.
PROC_FUZZ_SRC := src/source-diskstats.c src/source-cpus.c src/sample.c src/root.c src/device-irq.c src/trace.c \
                 src/trace-topology.c src/readahead.c src/format.c src/cgroup-sample.c \
                 src/proc-sample.c src/capacity.c
$(BUILD)/fuzz/fuzz-procfiles: tests/fuzz/fuzz-procfiles.c $(PROC_FUZZ_SRC) $(GENERATED)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CPPFLAGS) -o $@ $< $(PROC_FUZZ_SRC) -lproc2 -lm

# The journal reader: tests/fuzz/corpus-journal holds valid journals (a unit
# test parses each with nothing rejected).
JOURNAL_FUZZ_SRC := src/journal.c src/safe-file.c
$(BUILD)/fuzz/fuzz-journal: tests/fuzz/fuzz-journal.c $(JOURNAL_FUZZ_SRC)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CPPFLAGS) -o $@ $< $(JOURNAL_FUZZ_SRC)

# A sweep directory's files (blktune report reads them): fio JSON, sweep.csv,
# sweep.info; the first byte of an input picks the parser.
SWEEP_FUZZ_SRC := src/json-read.c src/sweep-workload.c src/sweep-figure.c src/sweep-csv.c src/sweep-info.c src/safe-file.c \
                  src/format.c src/root.c src/crc32c.c
$(BUILD)/fuzz/fuzz-sweep: tests/fuzz/fuzz-sweep.c $(SWEEP_FUZZ_SRC)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CPPFLAGS) -o $@ $< $(SWEEP_FUZZ_SRC) -lm

# A recording (blktune -r): frames, checksums, payloads, the sample walk.
RECORD_FUZZ_SRC := src/record-read.c src/record-codec.c src/crc32c.c src/format.c src/sample.c src/trace.c \
                   src/trace-topology.c src/readahead.c src/cgroup-sample.c src/proc-sample.c src/root.c \
                   src/device-irq.c src/capacity.c
$(BUILD)/fuzz/fuzz-record: tests/fuzz/fuzz-record.c $(RECORD_FUZZ_SRC) $(GENERATED)
	mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CPPFLAGS) -o $@ $< $(RECORD_FUZZ_SRC) -lm

# One target at a time (-jobs=1): the machine is shared. A crash stops make
# with the reproducer's path (crash-*, in the current directory).
fuzz: $(foreach t,$(FUZZ_TARGETS),$(BUILD)/fuzz/fuzz-$(t))
	@set -e; for t in $(FUZZ_TARGETS); do \
		rm -rf $(BUILD)/fuzz/corpus-$$t; mkdir -p $(BUILD)/fuzz/corpus-$$t; \
		cp tests/fuzz/corpus-$$t/* $(BUILD)/fuzz/corpus-$$t/; \
		echo "== fuzz-$$t"; \
		$(BUILD)/fuzz/fuzz-$$t -jobs=1 -print_final_stats=1 \
			$(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(or $(FUZZ_TIME),60)) \
			$(BUILD)/fuzz/corpus-$$t; \
	done

# The targets' names, for tests/integration/fuzz-build.sh.
print-fuzz-targets:
	@echo $(FUZZ_TARGETS)
