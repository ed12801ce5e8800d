#include "doc.h"

#include <errno.h>
#include <string.h>

#include "columns.h"
#include "keymap.h"
#include "tunable-table.h"

/* roff treats a leading dot or quote as a request, and a backslash as an escape */
static void roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* The JSON key a column has in batch output, or NULL when JSON lacks it. */
static const char *json_key(int id)
{
	const struct column *c = &columns[id];

	if (c->flags & COLUMN_TRACED)
		return c->json; /* written with the trace fields */
	for (size_t k = 0; k < columns_batch_count; k++)
		if ((int)columns_batch_order[k] == id)
			return c->json;
	return NULL;
}

static void columns_list(FILE *f, int man)
{
	for (int i = 0; i < COLUMN_COUNT; i++) {
		const struct column *c = &columns[i];
		const char *key = json_key(i);
		if (man) {
			fputs(".TP\n.B ", f);
			roff(f, c->header);
			fputs("\n", f);
			roff(f, c->formula);
			fputs(c->table ? ". Device table" : ". Detail pane and batch text", f);
			if (key) {
				fputs("; JSON \\(lq", f);
				roff(f, key);
				fputs("\\(rq", f);
			}
			fputs(".\n", f);
		} else {
			fprintf(f, "  %-9s %-15s %s\n", c->header, key ? key : "-", c->formula);
		}
	}
}

static void tunables_list(FILE *f, int man)
{
	for (size_t i = 0; i < tunable_table_count(); i++) {
		const struct tunable_def *d = tunable_table_at(i);
		if (man) {
			fputs(".TP\n.B ", f);
			roff(f, d->name);
			fprintf(f, "\n%s", d->writable ? "" : "(read-only) ");
			roff(f, d->help);
			fputs(" Layer: ", f);
			roff(f, tunable_table_layer_name(d->layer));
			fputs(".\n", f);
		} else {
			fprintf(f, "  %-26s %s%s\n", d->name, d->writable ? "" : "(read-only) ", d->help);
		}
	}
}

int doc_print(FILE *f, const char *what, int man)
{
	if (!strcmp(what, "keys"))
		keymap_print(f, man ? "man" : "text");
	else if (!strcmp(what, "columns"))
		columns_list(f, man);
	else if (!strcmp(what, "tunables"))
		tunables_list(f, man);
	else
		return -EINVAL;
	return 0;
}
