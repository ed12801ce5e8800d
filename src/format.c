#include "format.h"

#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "%*.*f" without printf's arbitrary-precision float path, which dominated
 * a batch refresh of a thousand devices. Rounds half away from zero (printf
 * rounds the exact binary value); fine for display. Returns the length, or
 * -1 when it does not fit in width or the value is out of range. */
static int fixed(double v, int width, int prec, char *out, size_t len)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	char digits[32], *d = digits + sizeof(digits);
	int n, total;
	bool neg;
	double y;
	unsigned long long x;

	if (prec < 0 || prec > 3 || !(fabs(v) < 1e15))
		return -1;
	/* llround without the call: y - x is exact below 2^63, so this is
	 * half away from zero as llround is */
	y = fabs(v) * scale[prec];
	x = (unsigned long long)y;
	x += y - (double)x >= 0.5;
	neg = v < 0 && x != 0; /* no "-0.0" */
	/* the digits from the last, the point after prec of them */
	for (n = 0; n < prec; n++) {
		*--d = (char)('0' + x % 10);
		x /= 10;
	}
	if (prec)
		*--d = '.';
	do {
		*--d = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	if (neg)
		*--d = '-';
	n = (int)(digits + sizeof(digits) - d);
	total = n;
	if (total > width || (size_t)width >= len)
		return -1;
	memset(out, ' ', (size_t)(width - total));
	memcpy(out + width - total, d, (size_t)n);
	out[width] = '\0';
	return width;
}

/* pad spaces, then n bytes of s, then post spaces, cut to len - 1; the
 * length written */
static size_t pad(char *out, size_t len, size_t pre, const char *s, size_t n, size_t post)
{
	size_t room = len ? len - 1 : 0, k;
	char *start = out;

	if (!len)
		return 0;
	k = pre < room ? pre : room;
	memset(out, ' ', k);
	out += k;
	room -= k;
	k = n < room ? n : room;
	memcpy(out, s, k);
	out += k;
	room -= k;
	k = post < room ? post : room;
	memset(out, ' ', k);
	out[k] = '\0';
	return (size_t)(out + k - start);
}

size_t format_right(char *out, size_t len, int width, const char *s)
{
	size_t n = strlen(s), w = width < 0 ? (size_t)-(long)width : (size_t)width;

	/* printf: a negative width pads on the right */
	return pad(out, len, width > 0 && w > n ? w - n : 0, s, n, width < 0 && w > n ? w - n : 0);
}

size_t format_left(char *out, size_t len, int width, const char *s)
{
	size_t w = width > 0 ? (size_t)width : 0, n = strnlen(s, w);

	return pad(out, len, 0, s, n, w - n);
}

/* 0 with 0 to 3 decimals, right-aligned in ZERO_WIDTH columns. */
#define ZERO_WIDTH 20
static const char zeros[4][ZERO_WIDTH + 1] = {
	"                   0", "                 0.0", "                0.00", "               0.000",
};

/* Everything but a zero: out of line, so the zero above costs no frame. */
static __attribute__((noinline)) size_t num_slow(double v, int width, int prec, char *out, size_t len)
{
	static const char suffix[] = "kMGTP";
	double a = v;

	if (!isfinite(v))
		return format_right(out, len, width, "-");
	for (int p = prec; p >= 0; p--)
		if (fixed(v, width, p, out, len) >= 0)
			return (size_t)width;
	for (int p = prec; p >= 0; p--) {
		int n = snprintf(out, len, "%*.*f", width, p, v);
		if (n <= width)
			return strlen(out);
	}
	for (int i = 0; suffix[i]; i++) {
		a /= 1000.0;
		for (int p = 1; p >= 0; p--) {
			int n = snprintf(out, len, "%*.*f%c", width - 1, p, a, suffix[i]);
			if (n <= width)
				return strlen(out);
		}
	}
	return format_right(out, len, width, "#");
}

size_t format_num(double v, int width, int prec, char *out, size_t len)
{
	/* Most cells of idle devices: one copy of a ready-made zero. */
	if (v == 0 && prec >= 0 && prec <= 3 && width >= prec + 1 + (prec > 0) && width <= ZERO_WIDTH &&
	    (size_t)width < len) {
		memcpy(out, zeros[prec] + ZERO_WIDTH - width, (size_t)width + 1);
		return (size_t)width;
	}
	return num_slow(v, width, prec, out, len);
}

void format_kb(double kb, char *out, size_t len)
{
	static const char unit[] = "KMGTP";
	char b[32];
	int i = 0;

	while (kb >= 1024.0 && unit[i + 1]) {
		kb /= 1024.0;
		i++;
	}
	if (kb == floor(kb)) {
		snprintf(out, len, "%.0f%c", kb, unit[i]);
		return;
	}
	/* 1023.96K rounds to 1024.0K: that is the next unit's 1.0M */
	snprintf(b, sizeof(b), "%.1f", kb);
	if (strtod(b, NULL) >= 1024.0 && unit[i + 1]) {
		kb /= 1024.0;
		i++;
		snprintf(b, sizeof(b), "%.1f", kb);
	}
	snprintf(out, len, "%s%c", b, unit[i]);
}

const char *format_us(bool utf8)
{
	return utf8 ? "\u00b5s" : "us";
}

int format_pad(const char *s, int width)
{
	for (; *s; s++)
		width += ((unsigned char)*s & 0xc0) == 0x80;
	return width;
}

bool format_locale_utf8(void)
{
	return !strcmp(nl_langinfo(CODESET), "UTF-8");
}

/* A bucket bound: bytes as "512", "4K"; microseconds as "512us", "1.02ms",
 * "4.19s", 3 significant digits and never an exponent (%.3g writes 1073.7
 * as "1.07e+03", 999.6 as "1e+03"). */
static void bucket_bound(uint64_t le, bool bytes, bool utf8, char *b, size_t len)
{
	if (bytes) {
		if (le < 1024)
			snprintf(b, len, "%llu", (unsigned long long)le);
		else
			format_kb((double)le / 1024.0, b, len);
	} else if (le < 1000) {
		snprintf(b, len, "%llu%s", (unsigned long long)le, format_us(utf8));
	} else if (le < 999500) { /* below 999.5ms, which %.3g rounds to 1e+03 */
		snprintf(b, len, "%.3gms", (double)le / 1000.0);
	} else if (le < 999500000) {
		snprintf(b, len, "%.3gs", (double)le / 1e6);
	} else {
		snprintf(b, len, "%.0fs", (double)le / 1e6);
	}
}

void format_bucket(uint64_t le, uint64_t prev_le, bool bytes, bool utf8, char *out, size_t len)
{
	char b[24];

	/* le 0 is the open last bucket: above the bound the one before it
	 * shows, written the same way */
	bucket_bound(le ? le : prev_le, bytes, utf8, b, sizeof(b));
	snprintf(out, len, "%s%s", le ? "<=" : ">", b);
}

void format_latency(double us, char *out, size_t len)
{
	if (isnan(us))
		snprintf(out, len, "-");
	else if (us < 999.5) /* %.0f rounds 999.5 up to "1000us": 1.0ms */
		snprintf(out, len, "%.0fus", us);
	else
		snprintf(out, len, "%.1fms", us / 1000);
}

void format_uptime(double secs, char *out, size_t len)
{
	long s, d;

	if (!(secs >= 0 && secs < 1e11)) {
		snprintf(out, len, "n/a");
		return;
	}
	s = (long)secs;
	d = s / 86400;
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
		/* A NaN or negative point (never stored today) is no bar,
		 * not an index outside bars[]. */
		int level = isfinite(max) && max > 0 && v[i] > 0 ? (int)lroundf(v[i] / max * 8.0f) : 0;
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

/* The valid UTF-8 sequence at s: its length (1-4) and code point, or 0 for
 * a byte that starts none (stray continuation, overlong form, surrogate,
 * beyond U+10FFFF, truncated). */
static int utf8_seq(const unsigned char *s, unsigned *cp)
{
	static const unsigned min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	int n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		: s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	unsigned c;

	if (n <= 1) {
		*cp = s[0];
		return n;
	}
	c = s[0] & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* C0 and C1 controls and DEL move terminals (ESC, CSI 0x9b, ...). */
static bool printable(unsigned cp)
{
	return cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp < 0xa0);
}

bool format_text_ok(const char *s, bool word)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp;
	int n;

	if (word && !*p)
		return false;
	for (; *p; p += n) {
		/* printable ASCII, most text, without decoding */
		if (*p > ' ' && *p < 0x7f) {
			n = 1;
			continue;
		}
		if (!(n = utf8_seq(p, &cp)) || !printable(cp) || (word && cp == ' '))
			return false;
	}
	return true;
}

size_t format_sanitize(const char *s, char *out, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, bad = 0;
	unsigned cp;
	int n;

	if (!len)
		return 0;
	for (; *p; p += n ? n : 1) {
		n = utf8_seq(p, &cp);
		if (n && printable(cp)) {
			if (o + (size_t)n >= len)
				break;
			memcpy(out + o, p, (size_t)n);
			o += (size_t)n;
		} else {
			if (o + 1 >= len)
				break;
			out[o++] = '?';
			bad++;
		}
	}
	out[o] = '\0';
	return bad;
}

void format_json_string(const char *s, char *out, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	unsigned cp;
	int n;

	if (len < 3) {
		if (len)
			out[0] = '\0';
		return;
	}
	out[o++] = '"';
	/* Room for the longest piece (a 6-byte escape) and the closing quote. */
	for (; *p && o + 8 < len; p += n ? n : 1) {
		n = utf8_seq(p, &cp);
		if (!n) {
			/* Not UTF-8: JSON cannot carry the byte; say so with U+FFFD. */
			memcpy(out + o, "\\ufffd", 6);
			o += 6;
		} else if (cp == '"' || cp == '\\') {
			out[o++] = '\\';
			out[o++] = (char)cp;
		} else if (!printable(cp)) {
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", cp);
		} else {
			memcpy(out + o, p, (size_t)n);
			o += (size_t)n;
		}
	}
	out[o++] = '"';
	out[o] = '\0';
}

int format_plain(double v, int sig, char *out, size_t len)
{
	int dec;
	char *p;

	if (isnan(v) || isinf(v)) {
		snprintf(out, len, "%s", "");
		return 0;
	}
	/* sig significant digits, never an exponent (the man page promises no
	 * scientific notation in any output): 1187290 stays 1187290,
	 * 0.0000123 is 0.0000123, 1e99 is its 100 digits (FORMAT_PLAIN_MAX
	 * holds any double); trailing zeros go. Cut digits would be a wrong
	 * number (1e99 was cut to 63 digits once), so a short OUT is an error. */
	dec = v == 0 ? 0 : sig - 1 - (int)floor(log10(fabs(v)));
	if (dec < 0)
		dec = 0;
	if ((size_t)snprintf(out, len, "%.*f", dec, v) >= len) {
		snprintf(out, len, "%s", "");
		return -ERANGE;
	}
	if (dec > 0 && (p = strchr(out, '.'))) {
		char *e = out + strlen(out) - 1;
		while (e > p && *e == '0')
			*e-- = '\0';
		if (e == p)
			*e = '\0';
	}
	if (!strcmp(out, "-0"))
		snprintf(out, len, "0");
	return 0;
}

int format_exact(double v, char *out, size_t len)
{
	int err = 0;

	/* 17 digits always read back; 18 covers a log10 that floors to the
	 * wrong decade just below a power of ten (one digit fewer printed). */
	for (int sig = 1; sig <= 18; sig++)
		if ((err = format_plain(v, sig, out, len)) < 0 || !*out || strtod(out, NULL) == v)
			return err;
	return err;
}

/* fmt comes from the callers, literals all; strftime needs no checking. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
int format_time(double t, const char *fmt, char *out, size_t len)
{
	struct tm tm;
	time_t s;

	/* Year 0 to 9999: a time_t cast of anything else (1e300 from a file)
	 * is undefined, and localtime_r fails on some of the rest. */
	if (!(t >= -62167219200.0 && t < FORMAT_DATE_END) || (s = (time_t)t, !localtime_r(&s, &tm)) ||
	    !strftime(out, len, fmt, &tm)) {
		snprintf(out, len, "n/a");
		return -ERANGE;
	}
	return 0;
}
#pragma GCC diagnostic pop
