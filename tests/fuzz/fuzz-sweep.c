/* libFuzzer target for the files a sweep's directory holds and blktune
 * report reads back (make fuzz-sweep): fio's JSON, sweep.csv and sweep.info.
 * Any bytes must parse or be refused, never crash, overrun or hang; what
 * the CSV reader accepts, the writer writes back and the reader reads again
 * to the same runs. The first byte picks the parser. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json-read.h"
#include "sweep-csv.h"
#include "sweep-info.h"
#include "sweep-workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sweep_run runs[SWEEP_RUNS_MAX], back[SWEEP_RUNS_MAX];

static void csv(const char *text, size_t len)
{
	struct sweep_metric_opt m[SWEEP_METRICS_MAX], m2[SWEEP_METRICS_MAX];
	size_t nm = 0, nm2 = 0, olen = 0;
	char msg[256], *out = NULL;
	FILE *f = fmemopen((void *)text, len, "r"), *o;
	int n, n2;

	if (!f)
		return;
	n = sweep_csv_read(f, runs, SWEEP_RUNS_MAX, m, &nm, msg, sizeof(msg));
	fclose(f);
	if (n < 0) {
		if (strncmp(msg, "line ", 5))
			abort(); /* a refusal names its line */
		return;
	}
	if (!(o = open_memstream(&out, &olen)))
		return;
	sweep_csv_write(o, runs, (size_t)n, m, nm);
	fclose(o);
	f = fmemopen(out, olen, "r");
	n2 = f ? sweep_csv_read(f, back, SWEEP_RUNS_MAX, m2, &nm2, msg, sizeof(msg)) : n;
	if (f)
		fclose(f);
	if (n2 != n || nm2 != nm)
		abort();
	for (int i = 0; i < n; i++)
		if (strcmp(runs[i].asked, back[i].asked) || runs[i].repeat != back[i].repeat ||
		    !(runs[i].fig[SF_MB_S] == back[i].fig[SF_MB_S] ||
		      (isnan(runs[i].fig[SF_MB_S]) && isnan(back[i].fig[SF_MB_S])) ||
		      fabs(runs[i].fig[SF_MB_S] - back[i].fig[SF_MB_S]) <= 1e-8 * fabs(runs[i].fig[SF_MB_S])))
			abort();
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sweep_info info;
	char *text, msg[256];
	struct sweep_run r;
	FILE *f;

	if (size < 1 || size > (1 << 20))
		return 0;
	if (!(text = malloc(size)))
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		sweep_run_init(&r);
		sweep_workload_fio_parse(text, &r);
		break;
	case 1:
		csv(text, strlen(text));
		break;
	default:
		if ((f = fmemopen(text, strlen(text) + 1, "r"))) {
			if (sweep_info_read(f, &info, msg, sizeof(msg)) < 0 && strncmp(msg, "line ", 5))
				abort();
			fclose(f);
		}
		break;
	}
	free(text);
	return 0;
}
