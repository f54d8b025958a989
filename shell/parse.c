/*
 * parse.c: splits a shell line into words as a POSIX shell would for the
 * simple cases: blanks separate words, '...' and "..." quote, a backslash
 * escapes the next byte, an unquoted '>' redirects output to a file, and
 * an unquoted ';' ends one command of a list. `$?`, unquoted or in "...",
 * is the last command's status. An unquoted '|', '<' or '&'
 * (a pipe, an input redirection, a background job) is refused, not taken
 * as a plain character: the shell has none of them.
 */
#include <kobold/errno.h>
#include <kobold/shell.h>
#include <kobold/string.h>

struct parser {
	const char *src;
	const char *end;
	char *dst;
	const char *err;
	int status; /* what $? expands to */
};

static bool at_end(const struct parser *p) { return p->src >= p->end || !*p->src; }

enum token { TOK_END,
	     TOK_WORD,
	     TOK_REDIRECT,
	     TOK_SEPARATOR };

/* The message for an operator the shell does not have, or NULL. */
static const char *unsupported(char c)
{
	switch (c) {
	case '|':
		return "syntax error: no pipes (`|'); quote it to mean the character";
	case '<':
		return "syntax error: no input redirection (`<'); quote it to mean the character";
	case '&':
		return "syntax error: no background jobs (`&'); quote it to mean the character";
	default:
		return NULL;
	}
}

/* At "$?": the status's digits instead (0-255: three at most, as the words have room for). */
static bool expand_status(struct parser *p)
{
	char digits[4];
	int n = 0, v = p->status & 0xff;

	if (p->src + 1 >= p->end || p->src[0] != '$' || p->src[1] != '?')
		return false;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < 3);
	while (n)
		*p->dst++ = digits[--n];
	p->src++; /* the loop steps over the '?' */
	return true;
}

/* The next token; a word is copied to dst and terminated. */
static enum token next_token(struct parser *p, bool *append)
{
	char quote = 0;

	while (!at_end(p) && (*p->src == ' ' || *p->src == '\t'))
		p->src++;
	if (at_end(p))
		return TOK_END;
	if (*p->src == ';') {
		p->src++;
		return TOK_SEPARATOR;
	}
	if (*p->src == '>') {
		*append = p->src + 1 < p->end && p->src[1] == '>';
		p->src += *append ? 2 : 1;
		return TOK_REDIRECT;
	}
	for (; !at_end(p); p->src++) {
		char c = *p->src;
		bool escapable = p->src + 1 < p->end && p->src[1];

		if (quote != '\'' && expand_status(p))
			continue;
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
		} else if (c == ' ' || c == '\t' || c == '>' || c == ';') {
			break;
		} else if (unsupported(c)) {
			p->err = unsupported(c);
			break;
		} else {
			*p->dst++ = c;
		}
	}
	*p->dst++ = '\0';
	if (quote && !p->err)
		p->err = "syntax error: unterminated quoted string";
	return TOK_WORD;
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
	struct parser p = { line, line + strnlen(line, SHELL_LINE_MAX - 1), cl->words, NULL,
			    cl->status };
	bool append = false, want_file = false;
	enum token tok;
	char *word;

	cl->argc = 0;
	cl->redirect = NULL;
	cl->append = false;
	cl->next = NULL;
	while (word = p.dst, (tok = next_token(&p, &append)) != TOK_END) {
		if (p.err)
			goto fail;
		if (tok == TOK_SEPARATOR) {
			if (want_file || (cl->argc == 0 && !cl->redirect)) {
				p.err = "syntax error near unexpected token `;'";
				goto fail;
			}
			cl->next = p.src; /* the rest of the list */
			break;
		}
		if (tok == TOK_REDIRECT && (want_file || cl->redirect)) {
			p.err = "syntax error near unexpected token `>'";
			goto fail;
		}
		if (tok == TOK_REDIRECT) {
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
	cl->next = NULL;
	return -EINVAL;
}
