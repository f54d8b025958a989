/*
 * readline.h: the shell's line editor, in portable C (fuzzed on the host).
 * Bytes go in one at a time; output (echo, redraws) goes through a callback.
 */
#ifndef KOBOLD_READLINE_H
#define KOBOLD_READLINE_H

#include <kobold/types.h>

#define RL_LINE_MAX 1024 /* including the terminating NUL */
#define RL_HISTORY 32
#define RL_MAX_SHOWN 64 /* candidates listed after a second Tab */

enum rl_status {
	RL_EDITING,   /* keep feeding bytes */
	RL_LINE,      /* rl->line holds a complete line */
	RL_CANCELLED, /* Ctrl-C: the line was dropped */
	RL_TOO_LONG,  /* Enter on a line that overflowed: dropped */
};

struct readline;

/*
 * Tab completion: for the word that ends the line (it starts at word_start),
 * the completer calls rl_add_candidate() for each full replacement word; a
 * candidate may end in '/' (a directory) or ' ' (a finished word).
 */
typedef void (*rl_completer_t)(struct readline *rl, const char *line, size_t word_start);

struct readline {
	char line[RL_LINE_MAX];
	size_t len;
	bool overflow;
	int esc;       /* 0, or 1 after ESC, 2 inside ESC [ or ESC O */
	bool after_cr; /* the last byte was CR: a following LF is the same Enter */
	const char *prompt;
	void (*write)(const char *s, size_t n);
	rl_completer_t complete;
	/* history: a ring of the last RL_HISTORY lines */
	char history[RL_HISTORY][RL_LINE_MAX];
	unsigned int hist_count; /* lines ever added */
	unsigned int hist_back;	 /* 0: editing a new line; k: k-th newest shown */
	char saved[RL_LINE_MAX]; /* the new line, kept while browsing history */
	/* completion state, valid during one Tab */
	char common[RL_LINE_MAX];
	unsigned int nr_cand;
	char shown[RL_MAX_SHOWN][64];
	bool tab_again; /* the previous key was a Tab that listed nothing */
};

void rl_init(struct readline *rl, void (*write)(const char *, size_t), rl_completer_t complete);
/* Starts a new line: prints the prompt. */
void rl_start(struct readline *rl, const char *prompt);
enum rl_status rl_feed(struct readline *rl, int c);
void rl_add_candidate(struct readline *rl, const char *word);
void rl_history_add(struct readline *rl, const char *line);

#endif
