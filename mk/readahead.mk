# Readahead mode (issue 5): bpf/readahead.bpf.c -> its own object and
# skeleton $(BUILD)/readahead.skel.h, which src/source-readahead.c includes.
# A separate object from blktune.bpf.o so the mode, off by default, loads
# nothing until it is turned on. -mcpu=v3 for atomic fetch-and/or/cmpxchg.
# Also builds the integration-test driver build/ra-probe. Uses BPF_CFLAGS
# from mk/bpf.mk.
GENERATED += $(BUILD)/readahead.skel.h

$(BUILD)/readahead.bpf.o: bpf/readahead.bpf.c bpf/vmlinux-ra.h include/readahead-bpf.h | $(BUILD)/obj
	$(CLANG) $(BPF_CFLAGS) -mcpu=v3 -c $< -o $@

$(BUILD)/readahead.skel.h: $(BUILD)/readahead.bpf.o
	$(BPFTOOL) gen skeleton $< name readahead > $@.tmp && mv $@.tmp $@

$(BUILD)/ra-probe: tests/integration/ra-probe.c $(LIB_OBJ) $(GENERATED)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

all: $(BUILD)/ra-probe
