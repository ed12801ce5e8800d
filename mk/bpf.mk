# BPF side of issue 4: bpf/blktune.bpf.c -> clang -target bpf -> object ->
# bpftool gen skeleton -> $(BUILD)/blktune.skel.h, which src/source-bpf.c
# includes (so it is listed in GENERATED). Also builds the integration-test
# driver build/trace-probe.
CLANG    ?= clang
BPFTOOL  ?= bpftool
BPF_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' -e 's/s390x/s390/')
BPF_MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
              -Iinclude -Ibpf $(if $(BPF_MULTIARCH),-I/usr/include/$(BPF_MULTIARCH))

GENERATED += $(BUILD)/blktune.skel.h

$(BUILD)/blktune.bpf.o: bpf/blktune.bpf.c bpf/vmlinux-min.h include/blktune-bpf.h | $(BUILD)/obj
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/blktune.skel.h: $(BUILD)/blktune.bpf.o
	$(BPFTOOL) gen skeleton $< name blktune > $@.tmp && mv $@.tmp $@

$(BUILD)/trace-probe: tests/integration/trace-probe.c $(LIB_OBJ) $(GENERATED)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

all: $(BUILD)/trace-probe
