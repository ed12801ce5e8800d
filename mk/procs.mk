# The --trace-processes mode (issue 12): bpf/procs.bpf.c -> its own object and
# skeleton $(BUILD)/procs.skel.h, which src/source-procs-bpf.c includes. A
# separate object from blktune.bpf.o so the mode, off by default, loads
# nothing (and costs nothing) until asked for. Uses BPF_CFLAGS from mk/bpf.mk.
GENERATED += $(BUILD)/procs.skel.h

$(BUILD)/procs.bpf.o: bpf/procs.bpf.c bpf/vmlinux-procs.h include/procs-bpf.h include/blktune-bpf.h | $(BUILD)/obj
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/procs.skel.h: $(BUILD)/procs.bpf.o
	$(BPFTOOL) gen skeleton $< name procs > $@.tmp && mv $@.tmp $@
