#include "format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* "%*.*f" without printf's arbitrary-precision float path, which dominated
 * a batch refresh of a thousand devices. Rounds half away from zero (printf
 * rounds the exact binary value); fine for display. Returns the length, or
 * -1 when it does not fit in width or the value is out of range. */
static int fixed(double v, int width, int prec, char *out, size_t len)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	char digits[32];
	int n = 0, total;
	bool neg = v < 0;
	unsigned long long x;

	if (prec < 0 || prec > 3 || !(fabs(v) < 1e15))
		return -1;
	x = (unsigned long long)llround(fabs(v) * scale[prec]);
	neg = neg && x != 0; /* no "-0.0" */
	do {
		digits[n++] = (char)('0' + x % 10);
		x /= 10;
		if (n == prec)
			digits[n++] = '.';
	} while (x || n <= prec);
	if (prec && digits[n - 1] == '.')
		digits[n++] = '0';
	total = n + neg;
	if (total > width || (size_t)(width > total ? width : total) >= len)
		return -1;
	for (int i = 0; i < width - total; i++)
		*out++ = ' ';
	if (neg)
		*out++ = '-';
	while (n)
		*out++ = digits[--n];
	*out = '\0';
	return width;
}

void format_num(double v, int width, int prec, char *out, size_t len)
{
	static const char suffix[] = "kMGTP";
	double a = v;

	if (!isfinite(v)) {
		snprintf(out, len, "%*s", width, "-");
		return;
	}
	for (int p = prec; p >= 0; p--)
		if (fixed(v, width, p, out, len) >= 0)
			return;
	for (int p = prec; p >= 0; p--) {
		int n = snprintf(out, len, "%*.*f", width, p, v);
		if (n <= width)
			return;
	}
	for (int i = 0; suffix[i]; i++) {
		a /= 1000.0;
		for (int p = 1; p >= 0; p--) {
			int n = snprintf(out, len, "%*.*f%c", width - 1, p, a, suffix[i]);
			if (n <= width)
				return;
		}
	}
	snprintf(out, len, "%*s", width, "#");
}

void format_kb(double kb, char *out, size_t len)
{
	static const char unit[] = "KMGTP";
	int i = 0;

	while (kb >= 1024.0 && unit[i + 1]) {
		kb /= 1024.0;
		i++;
	}
	if (kb == floor(kb))
		snprintf(out, len, "%.0f%c", kb, unit[i]);
	else
		snprintf(out, len, "%.1f%c", kb, unit[i]);
}

void format_uptime(double secs, char *out, size_t len)
{
	long s = (long)secs, d = s / 86400;

	s %= 86400;
	if (d)
		snprintf(out, len, "%ldd %02ld:%02ld", d, s / 3600, (s / 60) % 60);
	else
		snprintf(out, len, "%02ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
}

void format_sparkline(const float *v, int n, int width, bool ascii, char *out, size_t len)
{
	static const char *const blocks[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char *const plain[] = { " ", ".", ",", ":", "-", "=", "+", "*", "#" };
	const char *const *bars = ascii ? plain : blocks;
	float max = 0;
	size_t used = 0;
	int start = n > width ? n - width : 0;

	for (int i = start; i < n; i++)
		if (v[i] > max)
			max = v[i];
	out[0] = '\0';
	for (int i = start; i < n; i++) {
		int level = max > 0 ? (int)lroundf(v[i] / max * 8.0f) : 0;
		const char *b;
		if (level == 0 && v[i] > 0)
			level = 1; /* any activity shows */
		b = bars[level];
		if (used + strlen(b) + 1 > len)
			break;
		memcpy(out + used, b, strlen(b));
		used += strlen(b);
	}
	out[used] = '\0';
}

void format_json_string(const char *s, char *out, size_t len)
{
	size_t o = 0;

	if (len < 3) {
		if (len)
			out[0] = '\0';
		return;
	}
	out[o++] = '"';
	for (; *s && o + 8 < len; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\') {
			out[o++] = '\\';
			out[o++] = (char)ch;
		} else if (ch < 0x20) {
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", ch);
		} else {
			out[o++] = (char)ch;
		}
	}
	out[o++] = '"';
	out[o] = '\0';
}

void format_plain(double v, int sig, char *out, size_t len)
{
	int dec;
	char *p;

	if (isnan(v) || isinf(v)) {
		snprintf(out, len, "%s", "");
		return;
	}
	/* sig significant digits, never an exponent: 1187290 stays 1187290,
	 * 0.000123456 is 0.000123456; trailing zeros go. */
	dec = v == 0 ? 0 : sig - 1 - (int)floor(log10(fabs(v)));
	if (dec < 0)
		dec = 0;
	if (dec > 12)
		dec = 12;
	snprintf(out, len, "%.*f", dec, v);
	if (dec > 0 && (p = strchr(out, '.'))) {
		char *e = out + strlen(out) - 1;
		while (e > p && *e == '0')
			*e-- = '\0';
		if (e == p)
			*e = '\0';
	}
	if (!strcmp(out, "-0"))
		snprintf(out, len, "0");
}
