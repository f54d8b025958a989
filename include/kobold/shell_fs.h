/* shell_fs.h: the shell's files: its working directory, and helpers its file commands share. */
#ifndef KOBOLD_SHELL_FS_H
#define KOBOLD_SHELL_FS_H

#include <kobold/fs.h>
#include <kobold/readline.h>
#include <kobold/sysfs.h>

/* A shell's working directory: each console's shell has one. */
struct shell_fs {
	struct path cwd; /* counted; mnt NULL until the first use: "/" */
	char cwd_buf[PATH_MAX];
};

#define SHELL_MAX_FDS 16

/* A shell's open files (open, read, write, close, fds): each console's own, as a process's. */
struct shell_files {
	struct shell_file {
		struct file *of;
		char *path;
	} fd[SHELL_MAX_FDS];
};

/* The running shell's (shell.c). */
struct shell_fs *shell_fs_current(void);
struct shell_files *shell_files_current(void);
/* Closes what the shell left open (the shell ends). */
void shell_files_exit(struct shell_files *files);
/* Lets go of the working directory (the shell ends). */
void shell_fs_exit(struct shell_fs *fs);
/* The shell's working directory, for the prompt. */
const char *shell_cwd_path(void);
/* The working directory (not counted: valid until the next cd). */
const struct path *shell_cwd(void);
/*
 * Writes data to the file at path (created if missing), as "> FILE" or
 * ">> FILE" do. *open_failed tells an error in opening it (which bash
 * reports as "bash: FILE: error") from one in writing it.
 */
int shell_write_file(const char *path, const char *data, size_t len, bool append,
		     bool *open_failed);
/* The sysfs node at path (relative to the cwd; counted), or -ENOENT outside /sys. */
struct sysfs_dirent;
int shell_lookup(const char *path, bool follow, struct sysfs_dirent **out);
/* Reads a whole attribute into buf, NUL-terminated; its length or -errno. */
int shell_read_attr(struct sysfs_dirent *sd, char *buf, size_t size);
/*
 * Writes all len bytes to an open file as a shell's echo does (coreutils'
 * full_write): a short count (a sysfs store() that takes one line at a time)
 * is followed by a write of the rest; a count of 0 stops with -ENOSPC
 * (Linux's echo would retry forever). len, or the first error.
 */
ssize_t shell_write_all(struct file *file, const char *buf, size_t len);
/* Offers completions of the partial path word (n bytes) to the line editor. */
void shell_complete_path(struct readline *rl, const char *word, size_t n);
/* True once the file's name is gone (unlinked, or its sysfs object removed). */
bool shell_file_deleted(struct file *file);

#endif
