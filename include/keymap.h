/* keymap: every key of the TUI is a row here (keys, label, help, action).
 * The help screen and `blktune --keys` (the man page's list) are generated
 * from this table, so they cannot drift apart. */
#ifndef BLKTUNE_KEYMAP_H
#define BLKTUNE_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ui.h"


struct keymap_entry {
	unsigned modes;       /* enum ui_mode bits the key works in */
	int keys[5];          /* ncurses key codes, 0-terminated */
	const char *label;    /* as shown in help: "j, Down" */
	const char *help;
	unsigned (*action)(struct ui *u);
	unsigned flags;       /* KEYMAP_REPLAY, KEYMAP_LIVE */
};

/* A key of the replay only (-r FILE): elsewhere the next row with the key
 * applies. */
#define KEYMAP_REPLAY 1u
/* A key that changes the machine (a tunable, a udev rule, the journal): in
 * a replay it does nothing and says so in one line. */
#define KEYMAP_LIVE 2u

/* Titles of the help sections, one per group of modes, in order. */
struct keymap_section {
	unsigned modes;
	const char *title;
	unsigned flags;       /* KEYMAP_REPLAY: the replay's keys */
};
extern const struct keymap_section keymap_sections[];
extern const int keymap_nsections;
/* The section a key is listed under: the last one whose modes hold all of
 * the key's modes (the replay's keys: the replay section). */
int keymap_section_of(const struct keymap_entry *e);

extern const struct keymap_entry keymap[];
extern const int keymap_count;

/* Run the action bound to key; returns ACT_* flags, or 0 with a status
 * message for an unbound key. */
unsigned keymap_dispatch(struct ui *u, int key);
/* Whether key does something in the current mode or the device table. */
bool keymap_bound(const struct ui *u, int key);
/* The status for a key bound to nothing in this mode (alt: it came after
 * Esc, as Alt-x does): "no action for Ctrl-X here". */
unsigned keymap_unbound(struct ui *u, int key, bool alt);
/* A key as a person types it: "Ctrl-X", "F5", "Alt-x", "PgUp", "z". */
void keymap_key_name(int key, bool alt, char *buf, size_t len);
/* A modified key's terminfo name (kRIT5, kHOM2) as a person says it
 * ("Ctrl-Right", "Shift-Home"): 0, or -ENOENT for another name. */
int keymap_modified_name(const char *cap, bool alt, char *buf, size_t len);
/* Enter in the interval prompt (s): set u->input as seconds, 0.1 to 60, or
 * say why not and keep the interval. */
unsigned keymap_interval_input(struct ui *u);
/* Print the key list: "text" for --keys, "man" as roff .TP entries. */
void keymap_print(FILE *f, const char *style);

#define KEYMAP_INTERVALS 9
extern const double keymap_intervals[KEYMAP_INTERVALS];

#endif
