#include "names.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

static const char *const type_words[NAMES_COUNT] = {
	[NAMES_ID] = "ID", [NAMES_LABEL] = "LABEL", [NAMES_PATH] = "PATH",
	[NAMES_UUID] = "UUID", [NAMES_PARTUUID] = "PARTUUID",
};
static const char *const type_dirs[NAMES_COUNT] = {
	[NAMES_ID] = "by-id", [NAMES_LABEL] = "by-label", [NAMES_PATH] = "by-path",
	[NAMES_UUID] = "by-uuid", [NAMES_PARTUUID] = "by-partuuid",
};

int names_type_parse(const char *s)
{
	for (int t = NAMES_NONE + 1; t < NAMES_COUNT; t++)
		if (!strcasecmp(s, type_words[t]))
			return t;
	return -EINVAL;
}

const char *names_type_dir(enum names_type t)
{
	return t > NAMES_NONE && t < NAMES_COUNT ? type_dirs[t] : NULL;
}

bool names_match_info(const char *arg, const char *name, const struct disk_info *info)
{
	return !strcmp(arg, name) || (info->text->dm_name[0] && !strcmp(arg, info->text->dm_name)) ||
	       (info->persistent[0] && !strcmp(arg, info->persistent));
}

bool names_match(const char *arg, const struct disk_metrics *m)
{
	return names_match_info(arg, m->name, m->info);
}

/* A name with '/' in it is one kernel name, not a relative path: no empty,
 * "." or ".." step. */
static bool names_kernel_like(const char *arg, size_t n)
{
	return arg[n - 1] != '/' && !strstr(arg, "//") && strcmp(arg, "..") && strncmp(arg, "../", 3) &&
	       !strstr(arg, "/../") && !(n >= 3 && !strcmp(arg + n - 3, "/..")) && strcmp(arg, ".") &&
	       strncmp(arg, "./", 2) && !strstr(arg, "/./") && !(n >= 2 && !strcmp(arg + n - 2, "/."));
}

int names_check_arg(const char *arg)
{
	size_t n = strlen(arg);

	if (!n || n >= NAMES_ARG_MAX || (arg[0] != '/' && n >= NAMES_MAX))
		return -EINVAL;
	/* A path is one under /dev/; a name may hold '/' as a kernel name
	 * does (aoe's etherd/e0.0 in /proc/diskstats), never a path step. */
	if (arg[0] == '/' ? strncmp(arg, "/dev/", 5) != 0 : !names_kernel_like(arg, n))
		return -EINVAL;
	if (!strncmp(arg, "/dev/", 5) && (!arg[5] || arg[n - 1] == '/' || strstr(arg, "/../")))
		return -EINVAL;
	return 0;
}
