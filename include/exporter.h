/* exporter: publishes each sample for Prometheus while blktune runs, on an
 * HTTP endpoint (--listen ADDR:PORT, /metrics, libmicrohttpd's own thread)
 * and/or as node_exporter textfile-collector file (--textfile DIR, replaced
 * atomically each interval). */
#ifndef BLKTUNE_EXPORTER_H
#define BLKTUNE_EXPORTER_H

#include <stddef.h>

#include "sample.h"

struct exporter;

/* listen: "ADDR:PORT" ("[v6]:PORT" for IPv6), or NULL; textfile_dir: a
 * directory, or NULL. why gets a one-line reason on failure. Returns 0 or
 * -errno (-EINVAL for a bad address: the command line's fault). */
int exporter_open(const char *listen, const char *textfile_dir, struct exporter **out,
		  char *why, size_t whylen);
/* Render s and make it what the next scrape (and the textfile) sees: the
 * endpoint is updated even when the textfile cannot be written, and a
 * textfile directory removed and re-created is written again. Returns 0 or
 * -errno; why then says which output failed and why, in one line. */
int exporter_publish(struct exporter *e, const struct sample *s, char *why, size_t whylen);
void exporter_close(struct exporter *e);

/* Split "ADDR:PORT" / "[ADDR]:PORT" into a host and a port 1..65535.
 * Returns 0 or -EINVAL. Exposed for tests. */
int exporter_parse_listen(const char *s, char *host, size_t hostlen, unsigned *port);

#endif
