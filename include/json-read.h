/* json-read: a small JSON reader (RFC 8259 values into a flat node array)
 * for documents other programs write, such as fio's --output-format=json.
 * Strings are kept as raw slices of the input (escapes not decoded: keys
 * and numbers are what callers look up). Numbers follow RFC 8259's grammar
 * (no hex, inf, nan or leading zeros) and are read in the C locale; one
 * beyond a double's range (1e400) makes the document malformed. */
#ifndef BLKTUNE_JSON_READ_H
#define BLKTUNE_JSON_READ_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ };

struct json_node {
	enum json_type type;
	const char *key;   /* member name inside an object, else NULL */
	size_t keylen;
	const char *str;   /* JSON_STR raw contents */
	size_t len;
	double num;        /* JSON_NUM, JSON_BOOL (0/1) */
	int child, next;   /* first child, next sibling; -1 = none */
};

struct json_doc {
	struct json_node *n;
	size_t count, cap;
};

/* Parse text (the first value; leading junk up to the first '{' or '[' is
 * skipped, as fio prints notes before its JSON). Returns 0 or -EINVAL
 * (-ENOMEM); node 0 is the root. Depth is limited to 64. */
int json_read(const char *text, struct json_doc *doc);
void json_free(struct json_doc *doc);
/* Member of an object node by name, or -1. */
int json_get(const struct json_doc *doc, int node, const char *key);
/* Number at a path of member names ("read", "clat_ns", "mean"), NAN if absent. */
double json_num_path(const struct json_doc *doc, int node, const char *const *path, size_t n);

#endif
