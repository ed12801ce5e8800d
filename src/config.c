#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "format.h"
#include "safe-file.h"

#define HEADER "blktune-config 1"

__attribute__((format(printf, 4, 5))) static int line_error(char *why, size_t len, int n, const char *fmt, ...)
{
	char msg[200], clean[sizeof(msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* the line goes to a terminal: a CR or an escape in it as '?' */
	format_sanitize(msg, clean, sizeof(clean));
	snprintf(why, len, "line %d: %s", n, clean);
	return -EINVAL;
}

static int parse_line(char *line, int n, struct config *c, char *why, size_t len)
{
	char *key = line, *val = strchr(line, ' '), *end;

	if (!val)
		return line_error(why, len, n, "\"%s\": expected KEY VALUE", line);
	*val++ = '\0';
	if (!strcmp(key, "columns")) {
		char w[160];
		if (column_layout_parse(val, &c->columns, w, sizeof(w)) < 0)
			return line_error(why, len, n, "columns: %s", w);
		c->has_columns = true;
	} else if (!strcmp(key, "sort")) {
		char *dir = strchr(val, ' ');
		if (dir)
			*dir++ = '\0';
		/* Any column: the columns panel sorts by a detail-pane column
		 * (d/s) too, shown or hidden, and W writes what it sorts by. */
		c->sort_column = column_find(val);
		if (c->sort_column < 0)
			return line_error(why, len, n, "sort: no column \"%s\" (blktune --list columns)", val);
		if (dir && strcmp(dir, "asc") && strcmp(dir, "desc"))
			return line_error(why, len, n, "sort: \"%s\" is neither asc nor desc", dir);
		c->sort_reverse = dir && !strcmp(dir, "desc");
		c->has_sort = true;
	} else if (!strcmp(key, "interval")) {
		c->interval = strtod(val, &end);
		if (end == val || *end || !isfinite(c->interval) || c->interval < APP_INTERVAL_MIN - 1e-9 ||
		    c->interval > APP_INTERVAL_MAX)
			return line_error(why, len, n, "interval %s: seconds from 0.1 to 60", val);
		c->has_interval = true;
	} else if (!strcmp(key, "color")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return line_error(why, len, n, "color %s: on or off", val);
		c->color = !strcmp(val, "on");
		c->has_color = true;
	} else {
		return line_error(why, len, n, "unknown setting \"%s\" (columns, sort, interval, color)", key);
	}
	return 0;
}

int config_parse(const char *text, struct config *c, char *why, size_t len)
{
	char buf[CONFIG_MAX_BYTES + 1];
	int n = 0, err = 0;
	bool header = false;

	memset(c, 0, sizeof(*c));
	if (strlen(text) > CONFIG_MAX_BYTES) {
		snprintf(why, len, "longer than %d bytes", CONFIG_MAX_BYTES);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	/* strtok would skip empty lines and lose their numbers */
	for (char *line = buf, *nl; line && !err; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		n++;
		if (!nl && !*line)
			break;
		if (!*line || line[0] == '#')
			continue;
		if (!header) {
			if (strcmp(line, HEADER))
				return line_error(why, len, n, "\"%s\": not a blktune config (first line " HEADER ")",
						  line);
			header = true;
			continue;
		}
		err = parse_line(line, n, c, why, len);
	}
	if (!err && !header) {
		snprintf(why, len, "empty: no \"" HEADER "\" line");
		return -EINVAL;
	}
	return err;
}

void config_format(const struct config *c, char *out, size_t len)
{
	char cols[1024] = "";
	size_t used;

	used = (size_t)snprintf(out, len, "# written by blktune (W in the full-screen view)\n" HEADER "\n");
	if (c->has_columns && used < len) {
		column_layout_text(&c->columns, cols, sizeof(cols));
		used += (size_t)snprintf(out + used, len - used, "columns %s\n", cols);
	}
	if (c->has_sort && used < len)
		used += (size_t)snprintf(out + used, len - used, "sort %s %s\n", columns[c->sort_column].header,
					 c->sort_reverse ? "desc" : "asc");
	if (c->has_interval && used < len)
		used += (size_t)snprintf(out + used, len - used, "interval %g\n", c->interval);
	if (c->has_color && used < len)
		snprintf(out + used, len - used, "color %s\n", c->color ? "on" : "off");
}

int config_path(char *dir, size_t dlen, char *file, size_t flen)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	/* The XDG spec: a relative XDG_CONFIG_HOME is invalid, ignore it. */
	if (xdg && xdg[0] == '/')
		snprintf(dir, dlen, "%s/blktune", xdg);
	else if (home && home[0] == '/')
		snprintf(dir, dlen, "%s/.config/blktune", home);
	else
		return -ENOENT;
	snprintf(file, flen, "%s/config", dir);
	return 0;
}

/* Read the file if there is one: 1 and text, 0 when there is none. */
static int read_text(const char *dir, char **text, char *why, size_t len)
{
	struct safe_dir d;
	char msg[256];
	ssize_t n;
	int err;

	*text = NULL;
	if (access(dir, F_OK) < 0)
		return 0;
	if ((err = safe_dir_open(dir, false, &d, msg, sizeof(msg))) < 0) {
		snprintf(why, len, "%s", msg);
		return err;
	}
	n = safe_read_all(&d, "config", CONFIG_MAX_BYTES, text, msg, sizeof(msg));
	safe_dir_close(&d);
	if (n == -ENOENT)
		return 0;
	if (n < 0) {
		if (n == -EFBIG)
			snprintf(why, len, "%s/config longer than %d bytes", dir, CONFIG_MAX_BYTES);
		else
			snprintf(why, len, "%s", msg);
		return (int)n;
	}
	return 1;
}

int config_load(struct config *c, char *why, size_t len)
{
	char dir[4096], file[4200], msg[256] = "";
	char *text;
	int err;

	memset(c, 0, sizeof(*c));
	if (config_path(dir, sizeof(dir), file, sizeof(file)) < 0)
		return -ENOENT;
	if ((err = read_text(dir, &text, msg, sizeof(msg))) <= 0) {
		if (err < 0)
			snprintf(why, len, "%s", msg); /* names the file or its directory */
		return err < 0 ? err : -ENOENT;
	}
	err = config_parse(text, c, msg, sizeof(msg));
	free(text);
	if (err < 0)
		snprintf(why, len, "%s %s", file, msg);
	return err;
}

int config_save(const struct config *c, char *msg, size_t len)
{
	char dir[4096], file[4200], why[256], tmp[64], body[2048];
	struct config old;
	struct safe_dir d;
	char *text;
	int fd, err;
	size_t n;

	if (config_path(dir, sizeof(dir), file, sizeof(file)) < 0) {
		snprintf(msg, len, "not written: neither XDG_CONFIG_HOME nor HOME is an absolute path");
		return -ENOENT;
	}
	/* A file that does not parse is someone's work: never replaced unseen. */
	if ((err = read_text(dir, &text, why, sizeof(why))) < 0) {
		snprintf(msg, len, "not written: %s", why);
		return err;
	}
	if (err > 0) {
		err = config_parse(text, &old, why, sizeof(why));
		free(text);
		if (err < 0) {
			snprintf(msg, len, "%s %s: not overwritten (fix or remove it)", file, why);
			return -EEXIST;
		}
	}
	if ((err = safe_dir_open(dir, true, &d, why, sizeof(why))) < 0) {
		snprintf(msg, len, "not written: %s", why);
		return err;
	}
	config_format(c, body, sizeof(body));
	if ((fd = safe_create_tmp(&d, ".config", tmp, sizeof(tmp), why, sizeof(why))) < 0) {
		snprintf(msg, len, "not written: %s", why);
		safe_dir_close(&d);
		return fd;
	}
	n = strlen(body);
	err = safe_write_all(fd, body, n);
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err)
		err = safe_rename(&d, tmp, "config");
	if (!err)
		err = safe_dir_sync(&d);
	if (err) {
		safe_unlink(&d, tmp);
		snprintf(msg, len, "%s not written: %s", file, strerror(-err));
	} else {
		snprintf(msg, len, "written %s", file);
	}
	safe_dir_close(&d);
	return err;
}
