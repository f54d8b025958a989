/*
 * readline.c: line editing for the shell: printable ASCII is inserted at the
 * end of the line, Backspace, Ctrl-W (a word) and Ctrl-U (the line) erase,
 * Ctrl-C drops the line, Up and Down walk the history, Tab completes.
 * Anything else is ignored, so no input can leave the line in a state the
 * shell did not expect.
 */
#include <kobold/readline.h>
#include <kobold/string.h>

#define CTRL(c) ((c) & 0x1f)

void rl_init(struct readline *rl, void (*write)(const char *, size_t), rl_completer_t complete)
{
	memset(rl, 0, sizeof(*rl));
	rl->write = write;
	rl->complete = complete;
}

static void out(struct readline *rl, const char *s) { rl->write(s, strlen(s)); }

void rl_start(struct readline *rl, const char *prompt)
{
	rl->len = 0;
	rl->line[0] = '\0';
	rl->overflow = false;
	rl->esc = 0;
	rl->hist_back = 0;
	rl->tab_again = false;
	rl->prompt = prompt;
	out(rl, prompt);
}

static void erase_chars(struct readline *rl, size_t n)
{
	while (n--)
		out(rl, "\b \b");
}

/* Replaces the whole visible line with s. */
static void set_line(struct readline *rl, const char *s)
{
	erase_chars(rl, rl->len);
	strscpy(rl->line, s, sizeof(rl->line));
	rl->len = strlen(rl->line);
	rl->write(rl->line, rl->len);
}

/* Ctrl-W: the word before the cursor and the blanks after it, as a tty's WERASE. */
static void erase_word(struct readline *rl)
{
	size_t n = rl->len;

	while (n > 0 && rl->line[n - 1] == ' ')
		n--;
	while (n > 0 && rl->line[n - 1] != ' ')
		n--;
	erase_chars(rl, rl->len - n);
	rl->len = n;
	rl->line[n] = '\0';
}

static void insert(struct readline *rl, char c)
{
	if (rl->len + 1 >= sizeof(rl->line)) {
		rl->overflow = true; /* reported at Enter; the rest is dropped */
		return;
	}
	rl->line[rl->len++] = c;
	rl->line[rl->len] = '\0';
	rl->write(&c, 1);
}

static const char *history_entry(struct readline *rl, unsigned int back)
{
	return rl->history[(rl->hist_count - back) % RL_HISTORY];
}

static void history_move(struct readline *rl, int dir)
{
	unsigned int avail = min(rl->hist_count, (unsigned int)RL_HISTORY);
	unsigned int next = rl->hist_back + (unsigned int)(dir > 0 ? 1 : -1);

	if ((dir > 0 && rl->hist_back >= avail) || (dir < 0 && rl->hist_back == 0))
		return;
	if (rl->hist_back == 0)
		strscpy(rl->saved, rl->line, sizeof(rl->saved));
	rl->hist_back = next;
	set_line(rl, next ? history_entry(rl, next) : rl->saved);
}

void rl_history_add(struct readline *rl, const char *line)
{
	if (!*line || (rl->hist_count && strcmp(history_entry(rl, 1), line) == 0))
		return;
	strscpy(rl->history[rl->hist_count % RL_HISTORY], line, RL_LINE_MAX);
	rl->hist_count++;
}

void rl_add_candidate(struct readline *rl, const char *word)
{
	size_t i;

	if (rl->nr_cand < RL_MAX_SHOWN)
		strscpy(rl->shown[rl->nr_cand], word, sizeof(rl->shown[0]));
	if (rl->nr_cand++ == 0) {
		strscpy(rl->common, word, sizeof(rl->common));
		return;
	}
	for (i = 0; rl->common[i] && rl->common[i] == word[i]; i++)
		;
	rl->common[i] = '\0';
}

static void list_candidates(struct readline *rl)
{
	out(rl, "\n");
	for (unsigned int i = 0; i < min(rl->nr_cand, (unsigned int)RL_MAX_SHOWN); i++) {
		out(rl, rl->shown[i]);
		out(rl, "\n");
	}
	if (rl->nr_cand > RL_MAX_SHOWN)
		out(rl, "...\n");
	out(rl, rl->prompt);
	rl->write(rl->line, rl->len);
}

static void complete(struct readline *rl)
{
	size_t start = rl->len, typed;

	if (!rl->complete)
		return;
	while (start > 0 && rl->line[start - 1] != ' ')
		start--;
	rl->nr_cand = 0;
	rl->common[0] = '\0';
	rl->complete(rl, rl->line, start);
	if (rl->nr_cand == 0)
		return;
	typed = rl->len - start;
	if (strlen(rl->common) > typed) {
		for (const char *p = rl->common + typed; *p; p++)
			insert(rl, *p);
		rl->tab_again = false;
		return;
	}
	if (rl->nr_cand > 1 && rl->tab_again)
		list_candidates(rl);
	rl->tab_again = !rl->tab_again;
}

/* ESC [ A (up), ESC [ B (down), also ESC O A; other sequences are swallowed. */
static enum rl_status escape(struct readline *rl, int c)
{
	if (rl->esc == 1) {
		rl->esc = (c == '[' || c == 'O') ? 2 : 0;
		return RL_EDITING;
	}
	if (c >= 0x40 && c <= 0x7e) {
		rl->esc = 0;
		if (c == 'A')
			history_move(rl, 1);
		else if (c == 'B')
			history_move(rl, -1);
	}
	return RL_EDITING;
}

static enum rl_status finish(struct readline *rl)
{
	out(rl, "\n");
	if (rl->overflow) {
		rl->len = 0;
		rl->line[0] = '\0';
		return RL_TOO_LONG;
	}
	return RL_LINE;
}

enum rl_status rl_feed(struct readline *rl, int c)
{
	bool crlf = c == '\n' && rl->after_cr;

	rl->after_cr = c == '\r';
	if (crlf)
		return RL_EDITING; /* the LF of a CR LF pair: Enter was handled */
	if (rl->esc)
		return escape(rl, c);
	if (c != '\t')
		rl->tab_again = false;
	switch (c) {
	case '\r':
	case '\n':
		return finish(rl);
	case 0x1b:
		rl->esc = 1;
		return RL_EDITING;
	case 0x7f:
	case '\b':
		if (rl->len > 0) {
			rl->line[--rl->len] = '\0';
			erase_chars(rl, 1);
		}
		return RL_EDITING;
	case CTRL('W'):
		erase_word(rl);
		return RL_EDITING;
	case CTRL('U'):
		erase_chars(rl, rl->len);
		rl->len = 0;
		rl->line[0] = '\0';
		rl->overflow = false;
		return RL_EDITING;
	case CTRL('C'):
		out(rl, "^C\n");
		rl->len = 0;
		rl->line[0] = '\0';
		return RL_CANCELLED;
	case '\t':
		complete(rl);
		return RL_EDITING;
	}
	if (c >= 0x20 && c < 0x7f)
		insert(rl, (char)c);
	return RL_EDITING;
}
