/*
 * parse.c: splits a shell line into words as a POSIX shell would for the
 * simple cases: blanks separate words, '...' and "..." quote, a backslash
 * escapes the next byte, and an unquoted '>' redirects output to a file.
 */
#include <kobold/errno.h>
#include <kobold/shell.h>
#include <kobold/string.h>

struct parser {
	const char *src;
	const char *end;
	char *dst;
	const char *err;
};

static bool at_end(const struct parser *p) { return p->src >= p->end || !*p->src; }

/* Copies one word to dst and terminates it; false at the end of the line. */
static bool next_word(struct parser *p, bool *is_redirect, bool *append)
{
	char quote = 0;

	while (!at_end(p) && (*p->src == ' ' || *p->src == '\t'))
		p->src++;
	if (at_end(p))
		return false;
	*is_redirect = *p->src == '>';
	if (*is_redirect) {
		*append = p->src + 1 < p->end && p->src[1] == '>';
		p->src += *append ? 2 : 1;
		return true;
	}
	for (; !at_end(p); p->src++) {
		char c = *p->src;
		bool escapable = p->src + 1 < p->end && p->src[1];

		if (quote) {
			if (c == quote)
				quote = 0;
			else if (quote == '"' && c == '\\' && escapable &&
				 (p->src[1] == '"' || p->src[1] == '\\'))
				*p->dst++ = *++p->src;
			else
				*p->dst++ = c;
		} else if (c == '\'' || c == '"') {
			quote = c;
		} else if (c == '\\' && escapable) {
			*p->dst++ = *++p->src;
		} else if (c == ' ' || c == '\t' || c == '>') {
			break;
		} else {
			*p->dst++ = c;
		}
	}
	*p->dst++ = '\0';
	if (quote)
		p->err = "syntax error: unterminated quoted string";
	return true;
}

static int add_word(struct shell_cmdline *cl, char *word, bool *want_file, const char **err)
{
	if (*want_file) {
		cl->redirect = word;
		*want_file = false;
		return 0;
	}
	if (cl->argc == SHELL_MAX_ARGS) {
		*err = "too many arguments";
		return -EINVAL;
	}
	cl->argv[cl->argc++] = word;
	return 0;
}

int shell_parse(const char *line, struct shell_cmdline *cl, const char **err)
{
	struct parser p = { line, line + strnlen(line, SHELL_LINE_MAX - 1), cl->words, NULL };
	bool redir, append = false, want_file = false;
	char *word;

	cl->argc = 0;
	cl->redirect = NULL;
	cl->append = false;
	while (word = p.dst, next_word(&p, &redir, &append)) {
		if (p.err)
			goto fail;
		if (redir && (want_file || cl->redirect)) {
			p.err = "syntax error near unexpected token `>'";
			goto fail;
		}
		if (redir) {
			want_file = true;
			cl->append = append;
		} else if (add_word(cl, word, &want_file, &p.err))
			goto fail;
	}
	if (want_file) {
		p.err = "syntax error near unexpected token `newline'";
		goto fail;
	}
	cl->argv[cl->argc] = NULL;
	return 0;
fail:
	*err = p.err;
	cl->argc = 0;
	cl->redirect = NULL;
	return -EINVAL;
}
