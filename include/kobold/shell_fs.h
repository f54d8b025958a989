/* shell_fs.h: what the shell needs from the sysfs commands (kernel/shell/fs.c). */
#ifndef KOBOLD_SHELL_FS_H
#define KOBOLD_SHELL_FS_H

#include <kobold/readline.h>

/* The shell's working directory, for the prompt. */
const char *shell_cwd_path(void);
/* Writes data to the attribute at path (relative to the cwd), as "> FILE" does. */
int shell_write_file(const char *path, const char *data, size_t len);
/* Resolves path against the shell's working directory (a counted reference). */
struct sysfs_dirent;
int shell_lookup(const char *path, bool follow, struct sysfs_dirent **out);
/* Reads a whole attribute into buf, NUL-terminated; its length or -errno. */
int shell_read_attr(struct sysfs_dirent *sd, char *buf, size_t size);
/* Offers completions of the partial path word (n bytes) to the line editor. */
void shell_complete_path(struct readline *rl, const char *word, size_t n);

#endif
