# make contrib: what the seed experiments (contrib/seeds/) run besides
# blktune and fio: cpuburn, the CPU-bound neighbour of seed 002.
.PHONY: contrib
contrib: $(BUILD)/cpuburn
$(BUILD)/cpuburn: contrib/seeds/cpuburn.c | $(BUILD)/obj
	$(CC) -std=gnu11 $(WARN) $(CFLAGS) -o $@ $< -lm
# The seed tests run it.
check: contrib
