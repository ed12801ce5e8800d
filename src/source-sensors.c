#include "source-sensors.h"

#include <errno.h>
#include <sensors/sensors.h>
#include <stdio.h>
#include <stdlib.h>

struct source_sensors {
	int nchips; /* chips with a temperature input, found at open */
};

int source_sensors_open(const struct root *r, struct source_sensors **out)
{
	struct source_sensors *src;

	if (!root_is_live(r))
		return -EOPNOTSUPP;
	if (sensors_init(NULL) != 0)
		return -ENODEV;
	if (!(src = calloc(1, sizeof(*src)))) {
		sensors_cleanup();
		return -ENOMEM;
	}
	*out = src;
	return 0;
}

void source_sensors_close(struct source_sensors *src)
{
	if (!src)
		return;
	sensors_cleanup();
	free(src);
}

int source_sensors_read(struct source_sensors *src, struct sample *s)
{
	const sensors_chip_name *chip;
	int c = 0;

	s->ntemps = 0;
	while ((chip = sensors_get_detected_chips(NULL, &c)) && s->ntemps < SAMPLE_TEMPS_MAX) {
		const sensors_feature *f;
		int fi = 0;
		while ((f = sensors_get_features(chip, &fi)) && s->ntemps < SAMPLE_TEMPS_MAX) {
			const sensors_subfeature *sf;
			double v;
			char *label;
			if (f->type != SENSORS_FEATURE_TEMP)
				continue;
			sf = sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_INPUT);
			if (!sf || sensors_get_value(chip, sf->number, &v) != 0)
				continue;
			label = sensors_get_label(chip, f);
			snprintf(s->temps[s->ntemps].label, sizeof(s->temps[0].label), "%s",
				 label ? label : f->name);
			free(label);
			s->temps[s->ntemps++].celsius = v;
		}
	}
	src->nchips = s->ntemps;
	return 0;
}
