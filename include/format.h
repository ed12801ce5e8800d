/* format: numbers into fixed-width cells and human units. */
#ifndef BLKTUNE_FORMAT_H
#define BLKTUNE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

/* v in at most width characters: prec decimals if it fits, fewer if not,
 * then k/M/G/T suffixes; never wider than width. */
void format_num(double v, int width, int prec, char *out, size_t len);
/* Kibibytes as "512K", "4.0M", "1.2G". */
void format_kb(double kb, char *out, size_t len);
/* Seconds as "3d 04:05", "04:05:06". */
void format_uptime(double secs, char *out, size_t len);
/* A series as a sparkline of block characters (UTF-8), width cells. */
/* ascii: nine ASCII levels (" .,:-=+*#") for a terminal whose locale is
 * not UTF-8, where the block characters would print as junk. */
void format_sparkline(const float *v, int n, int width, bool ascii, char *out, size_t len);
/* JSON string escaping of s into out. */
void format_json_string(const char *s, char *out, size_t len);

/* v with sig significant digits in plain decimal notation (never 1e+06,
 * trailing zeros dropped); "" for NAN. For CSV and text outputs. */
void format_plain(double v, int sig, char *out, size_t len);

#endif
