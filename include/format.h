/* format: numbers into fixed-width cells and human units. */
#ifndef BLKTUNE_FORMAT_H
#define BLKTUNE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 10000-01-01 00:00:00 UTC: a time a file holds is a date from 1970 up
 * to it, which every reader and format_time take. */
#define FORMAT_DATE_END 253402300800.0

/* v in at most width characters: prec decimals if it fits, fewer if not,
 * then k/M/G/T suffixes; never wider than width. Returns the length written. */
size_t format_num(double v, int width, int prec, char *out, size_t len);
/* snprintf(out, len, "%*s", width, s) and snprintf(out, len, "%-*.*s", width,
 * width, s), without printf: a refresh of a thousand rows pads thousands of
 * cells. Widths count bytes, as printf's do; out is cut to len - 1;
 * format_left takes no negative width. All three return the length written. */
size_t format_right(char *out, size_t len, int width, const char *s);
size_t format_left(char *out, size_t len, int width, const char *s);
/* Kibibytes as "512K", "4.0M", "1.2G". */
void format_kb(double kb, char *out, size_t len);
/* A latency percentile as "87us", "1.5ms"; "-" for NAN (no completion). */
void format_latency(double us, char *out, size_t len);
/* Seconds as "3d 04:05", "04:05:06". */
void format_uptime(double secs, char *out, size_t len);
/* A series as a sparkline of block characters (UTF-8), width cells. */
/* ascii: nine ASCII levels (" .,:-=+*#") for a terminal whose locale is
 * not UTF-8, where the block characters would print as junk. */
void format_sparkline(const float *v, int n, int width, bool ascii, char *out, size_t len);
/* Local time of t (seconds since the epoch) with strftime's fmt, or "n/a"
 * and -ERANGE when t is no date (NaN, 1e300, a failed localtime_r). */
int format_time(double t, const char *fmt, char *out, size_t len);
/* JSON string escaping of s into out, quotes included: controls as \u00XX,
 * bytes that are not UTF-8 as \ufffd, so the output is always valid JSON. */
void format_json_string(const char *s, char *out, size_t len);
/* Every string from a file that reaches a terminal goes through this: valid
 * UTF-8 without C0/C1 controls or DEL is copied, anything else becomes '?'
 * (an ESC or CSI from a doctored tree never moves the terminal). Returns
 * the number of replaced characters. */
size_t format_sanitize(const char *s, char *out, size_t len);
/* True when s would pass format_sanitize unchanged; word: also non-empty and
 * without spaces. The one definition of text that files blktune writes and
 * reads back (snapshots) may hold. */
bool format_text_ok(const char *s, bool word);

/* The bound of a log2 histogram bucket, the same on every screen and in
 * every text output: sizes in bytes ("<=512", "<=4K"), latencies in
 * microseconds ("<=512µs", "<=1.02ms", "<=4.19s", "<=1074s": 3 significant
 * digits or whole seconds, never an exponent); utf8 false writes "us". The
 * open last bucket (le 0) is ">" and the bound prev_le of the one before
 * it, written as that bucket writes it (">4M", ">1074s"). */
void format_bucket(uint64_t le, uint64_t prev_le, bool bytes, bool utf8, char *out, size_t len);
/* The microsecond unit for this terminal: "µs", or "us" where the locale is
 * not UTF-8. */
const char *format_us(bool utf8);
/* The printf width that pads s to width columns: its UTF-8 continuation
 * bytes take no column ("%-*s" counts bytes). */
int format_pad(const char *s, int width);
/* Whether the locale's character set is UTF-8 (after setlocale). */
bool format_locale_utf8(void);

/* Bytes that hold any finite double in plain notation with up to 17
 * significant digits: "-0." and 340 decimals (4.9e-324), or a sign and
 * 309 digits (1.8e308). */
#define FORMAT_PLAIN_MAX 352
/* v with sig (1 to 17) significant digits in plain decimal notation, never
 * an exponent (1e+06, 1.23e-05), trailing zeros dropped; "" for NAN and
 * infinities. For CSV, text and JSON outputs. Returns 0, or -ERANGE (out
 * "") when len is too small: FORMAT_PLAIN_MAX bytes always suffice. */
int format_plain(double v, int sig, char *out, size_t len);
/* v as format_plain writes it, with the fewest significant digits that
 * strtod reads back as exactly v (0.1 is "0.1", 1/3 is 17 digits): a file
 * read back gives the same figures as the memory it was written from.
 * Returns 0 or -ERANGE as format_plain. */
int format_exact(double v, char *out, size_t len);

#endif
