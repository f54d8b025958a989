/* shell_fs.h: what the shell needs from the sysfs commands (kernel/shell/fs.c). */
#ifndef KOBOLD_SHELL_FS_H
#define KOBOLD_SHELL_FS_H

#include <kobold/readline.h>
#include <kobold/sysfs.h>

/* The shell's working directory, for the prompt. */
const char *shell_cwd_path(void);
/* Writes data to the attribute at path (relative to the cwd), as "> FILE" does. */
int shell_write_file(const char *path, const char *data, size_t len);
/* Resolves path against the shell's working directory (a counted reference). */
struct sysfs_dirent;
int shell_lookup(const char *path, bool follow, struct sysfs_dirent **out);
/* Reads a whole attribute into buf, NUL-terminated; its length or -errno. */
int shell_read_attr(struct sysfs_dirent *sd, char *buf, size_t size);
/*
 * Writes all len bytes as a shell's echo does (coreutils' full_write): a
 * short count from store() is followed by a write of the rest, so a store()
 * that takes one line at a time sees each in turn; a count of 0 stops with
 * -ENOSPC (Linux's echo would retry forever). len, or the first error.
 */
ssize_t shell_full_write(struct sysfs_open_file *of, const char *buf, size_t len);
/* Offers completions of the partial path word (n bytes) to the line editor. */
void shell_complete_path(struct readline *rl, const char *word, size_t n);

#endif
