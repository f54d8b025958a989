/* glob.h: shell-style wildcard matching, for module aliases and udev rules. */
#ifndef KOBOLD_GLOB_H
#define KOBOLD_GLOB_H

#include <kobold/types.h>

/*
 * True if str matches pat as a shell matches a file name (Linux's
 * lib/glob.c): '*' any run of characters, '?' any one character, '[abc]',
 * '[a-z]' and '[!a-z]' (or '[^a-z]') one character of a set or not of it.
 * '\' makes the next character plain. A '[' with no closing ']' is plain.
 */
bool glob_match(const char *pat, const char *str);

#endif
