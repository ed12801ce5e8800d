#include "json-read.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JSON_DEPTH_MAX 64

struct parser {
	const char *p;
	struct json_doc *doc;
};

static void ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int node(struct parser *ps, enum json_type t)
{
	struct json_doc *d = ps->doc;

	if (d->count == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 256;
		struct json_node *n = realloc(d->n, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		d->n = n;
		d->cap = cap;
	}
	d->n[d->count] = (struct json_node){ .type = t, .child = -1, .next = -1 };
	return (int)d->count++;
}

/* A string's raw contents; ps->p ends after the closing quote. */
static int string(struct parser *ps, const char **s, size_t *len)
{
	const char *q = ++ps->p;

	while (*q && *q != '"') {
		if ((unsigned char)*q < 0x20)
			return -EINVAL;
		if (*q == '\\' && !*++q)
			return -EINVAL;
		q++;
	}
	if (*q != '"')
		return -EINVAL;
	*s = ps->p;
	*len = (size_t)(q - ps->p);
	ps->p = q + 1;
	return 0;
}

/* The end of the number at p by RFC 8259's grammar
 * (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), or NULL: strtod alone
 * would take hex, inf, nan, "1." and leading zeros. */
static const char *number_end(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

static int value(struct parser *ps, int depth);

static int container(struct parser *ps, int self, bool obj, int depth)
{
	int prev = -1, err;
	char close = obj ? '}' : ']';

	ps->p++;
	ws(ps);
	if (*ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		size_t keylen = 0;
		int child;

		ws(ps);
		if (obj) {
			if (*ps->p != '"' || (err = string(ps, &key, &keylen)) < 0)
				return -EINVAL;
			ws(ps);
			if (*ps->p++ != ':')
				return -EINVAL;
			ws(ps);
		}
		if ((child = value(ps, depth + 1)) < 0)
			return child;
		ps->doc->n[child].key = key;
		ps->doc->n[child].keylen = keylen;
		if (prev < 0)
			ps->doc->n[self].child = child;
		else
			ps->doc->n[prev].next = child;
		prev = child;
		ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p++ != close)
			return -EINVAL;
		return 0;
	}
}

static int value(struct parser *ps, int depth)
{
	int self, err;
	char *end;

	if (depth > JSON_DEPTH_MAX)
		return -EINVAL;
	ws(ps);
	switch (*ps->p) {
	case '{':
	case '[':
		if ((self = node(ps, *ps->p == '{' ? JSON_OBJ : JSON_ARR)) < 0)
			return self;
		return (err = container(ps, self, ps->doc->n[self].type == JSON_OBJ, depth)) < 0 ? err : self;
	case '"':
		if ((self = node(ps, JSON_STR)) < 0)
			return self;
		return (err = string(ps, &ps->doc->n[self].str, &ps->doc->n[self].len)) < 0 ? err : self;
	case 't':
	case 'f':
	case 'n': {
		static const struct { const char *word; enum json_type t; double v; } words[] = {
			{ "true", JSON_BOOL, 1 }, { "false", JSON_BOOL, 0 }, { "null", JSON_NULL, 0 },
		};
		for (size_t i = 0; i < 3; i++)
			if (!strncmp(ps->p, words[i].word, strlen(words[i].word))) {
				if ((self = node(ps, words[i].t)) < 0)
					return self;
				ps->doc->n[self].num = words[i].v;
				ps->p += strlen(words[i].word);
				return self;
			}
		return -EINVAL;
	}
	default: {
		const char *last = number_end(ps->p);

		if (!last)
			return -EINVAL;
		if ((self = node(ps, JSON_NUM)) < 0)
			return self;
		/* the grammar is a subset of strtod's in the C locale */
		ps->doc->n[self].num = strtod(ps->p, &end);
		/* 1e400 is in the grammar but beyond a double: no figure
		 * is ever infinite (an underflow to 0 is the number) */
		if (end != last || isinf(ps->doc->n[self].num))
			return -EINVAL;
		ps->p = end;
		return self;
	}
	}
}

int json_read(const char *text, struct json_doc *doc)
{
	struct parser ps = { .doc = doc };
	int r;

	memset(doc, 0, sizeof(*doc));
	ps.p = text + strcspn(text, "{[");
	if (!*ps.p)
		return -EINVAL;
	if ((r = value(&ps, 0)) < 0) {
		json_free(doc);
		return r;
	}
	return 0;
}

void json_free(struct json_doc *doc)
{
	free(doc->n);
	memset(doc, 0, sizeof(*doc));
}

int json_get(const struct json_doc *doc, int node_i, const char *key)
{
	size_t n = strlen(key);

	if (node_i < 0 || (size_t)node_i >= doc->count || doc->n[node_i].type != JSON_OBJ)
		return -1;
	for (int c = doc->n[node_i].child; c >= 0; c = doc->n[c].next)
		if (doc->n[c].keylen == n && !memcmp(doc->n[c].key, key, n))
			return c;
	return -1;
}

double json_num_path(const struct json_doc *doc, int node_i, const char *const *path, size_t n)
{
	for (size_t i = 0; i < n && node_i >= 0; i++)
		node_i = json_get(doc, node_i, path[i]);
	return node_i >= 0 && doc->n[node_i].type == JSON_NUM ? doc->n[node_i].num : NAN;
}
