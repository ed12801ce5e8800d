/* source-sensors: temperatures from libsensors (live system only). A machine
 * without sensors (no hwmon, as in VMs) gives an empty list, not an error. */
#ifndef BLKTUNE_SOURCE_SENSORS_H
#define BLKTUNE_SOURCE_SENSORS_H

#include "root.h"
#include "sample.h"

struct source_sensors;

int source_sensors_open(const struct root *r, struct source_sensors **out);
void source_sensors_close(struct source_sensors *src);
/* Fills s->temps (at most SAMPLE_TEMPS_MAX); s->ntemps may be 0. */
int source_sensors_read(struct source_sensors *src, struct sample *s);

#endif
