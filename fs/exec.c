/*
 * exec.c: execve (Linux's fs/exec.c and fs/binfmt_elf.c, load_elf_binary's
 * second part). The arguments are copied into the kernel first; a "#!"
 * script restarts with its interpreter; an ELF executable is checked
 * (binfmt_elf.c's elf_check) and its segments copied into a new address
 * space, with the stack laid out as Linux's create_elf_tables does. Only
 * then is the old address space let go: an error before that point leaves
 * the caller as it was.
 */
#include <asm/desc.h>
#include <asm/ptrace.h>
#include <kobold/completion.h>
#include <kobold/elf.h>
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/fs.h>
#include <kobold/mm.h>
#include <kobold/mm_types.h>
#include <kobold/random.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/uaccess.h>
#include <kobold/user_stack.h>

#define MAX_ARG_BYTES (128 * 1024) /* argv and envp together (Linux: a quarter of the stack limit) */
#define BINPRM_BUF_SIZE 4096
#define MAX_INTERP_DEPTH 4

struct linux_binprm {
	char *strings; /* argv's strings, then envp's, each with its NUL */
	size_t len;
	int argc, envc;
	char *filename; /* the file to run (the interpreter's, after "#!") */
	char *execfn;	/* the path execve was given: AT_EXECFN */
	struct file *file;
	char *buf; /* the file's first bytes */
	size_t buf_len;
	loff_t size;
};

static int add_string(struct linux_binprm *b, const char *s, bool from_user)
{
	long n;

	if (from_user) {
		n = strncpy_from_user(b->strings + b->len, s, (long)(MAX_ARG_BYTES - b->len));
		if (n < 0)
			return (int)n;
	} else {
		n = (long)strnlen(s, MAX_ARG_BYTES - b->len);
		memcpy(b->strings + b->len, s, (size_t)n);
	}
	if (b->len + (size_t)n >= MAX_ARG_BYTES)
		return -E2BIG;
	b->strings[b->len + (size_t)n] = '\0';
	b->len += (size_t)n + 1;
	return 0;
}

/* A NULL-terminated array of strings (argv or envp); its count, or -errno. */
static int copy_strings(struct linux_binprm *b, char *const *v, bool from_user)
{
	int n = 0, err;
	char *s;

	if (!v)
		return 0;
	for (;; n++) {
		if (from_user) {
			if (get_user(s, (char *const __user *)&v[n]))
				return -EFAULT;
		} else {
			s = v[n];
		}
		if (!s)
			return n;
		err = add_string(b, s, from_user);
		if (err)
			return err;
	}
}

static int open_exec(struct linux_binprm *b)
{
	struct kstat st;
	ssize_t n;
	int err = vfs_open(&current->user.fs->pwd, b->filename, O_RDONLY, 0, &b->file);

	if (err)
		return err;
	err = vfs_fstat(b->file, &st);
	if (err)
		return err;
	if (!S_ISREG(st.mode))
		return -EACCES;
	if (!(st.mode & 0111))
		return -EACCES;
	b->size = st.size;
	n = vfs_read(b->file, b->buf, BINPRM_BUF_SIZE);
	if (n < 0)
		return (int)n;
	b->buf_len = (size_t)n;
	return 0;
}

/* "#!interp [arg]": argv becomes interp, [arg,] the script's path, argv[1...]. */
static int load_script(struct linux_binprm *b)
{
	char *line = b->buf + 2, *end, *interp, *arg = NULL, *old = b->strings;
	size_t old_len = b->len, first = strnlen(old, old_len) + 1;
	int err;

	b->buf[b->buf_len] = '\0';
	end = strchr(line, '\n');
	if (!end)
		return -ENOEXEC;
	*end = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	interp = line;
	while (*line && *line != ' ' && *line != '\t')
		line++;
	if (*line) {
		*line++ = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line)
			arg = line;
	}
	if (!*interp)
		return -ENOEXEC; /* "#!" and no interpreter */
	b->strings = kmalloc(MAX_ARG_BYTES);
	if (!b->strings) {
		b->strings = old;
		return -ENOMEM;
	}
	b->len = 0;
	err = add_string(b, interp, false);
	if (!err && arg)
		err = add_string(b, arg, false);
	if (!err)
		err = add_string(b, b->filename, false);
	if (!err && old_len - first > MAX_ARG_BYTES - b->len)
		err = -E2BIG;
	if (!err) {
		memcpy(b->strings + b->len, old + first, old_len - first);
		b->len += old_len - first;
		b->argc += arg ? 2 : 1;
		kfree(b->filename);
		b->filename = kstrdup(interp);
		err = b->filename ? 0 : -ENOMEM;
	}
	kfree(old);
	return err;
}

static unsigned long vm_flags_of(u32 p_flags)
{
	return (p_flags & PF_R ? VM_READ : 0) | (p_flags & PF_W ? VM_WRITE : 0) |
	       (p_flags & PF_X ? VM_EXEC : 0);
}

/* The file's bytes of one segment into its pages; the rest of each page stays zero. */
static int fill_segment(struct linux_binprm *b, struct mm_struct *mm, const Elf32_Phdr *ph,
			unsigned long bias)
{
	unsigned long start = ph->p_vaddr + bias, end = start + ph->p_filesz;

	for (unsigned long a = start; a < end;) {
		unsigned long next = min((a & ~(PAGE_SIZE - 1)) + PAGE_SIZE, end);
		char *page = user_page_kaddr(mm, a);
		ssize_t n;

		if (!page)
			return -ENOMEM;
		vfs_llseek(b->file, (loff_t)(ph->p_offset + (a - start)));
		n = vfs_read(b->file, page + (a & (PAGE_SIZE - 1)), next - a);
		if (n != (ssize_t)(next - a))
			return n < 0 ? (int)n : -EIO;
		a = next;
	}
	return 0;
}

static int map_segment(struct linux_binprm *b, struct mm_struct *mm, const Elf32_Phdr *ph,
		       unsigned long bias)
{
	unsigned long start = (ph->p_vaddr + bias) & ~(PAGE_SIZE - 1);
	unsigned long end = ALIGN_UP(ph->p_vaddr + bias + ph->p_memsz, PAGE_SIZE);
	unsigned long flags = vm_flags_of(ph->p_flags);
	struct vm_area_struct *v = find_vma(mm, start);
	int err;

	if (v) { /* the page it shares with the segment before */
		v->vm_flags |= flags;
		start += PAGE_SIZE;
	}
	if (start < end) {
		err = insert_vma(mm, start, end, flags | VM_WRITE, b->execfn, ph->p_offset >> 12);
		if (err)
			return err;
	}
	err = fill_segment(b, mm, ph, bias);
	if (err)
		return err;
	if (start < end && !(flags & VM_WRITE))
		err = do_mprotect(mm, start, end - start, flags); /* written once, now read-only */
	return err;
}

/* AT_PHDR: where the program headers are in memory. */
static unsigned long phdr_address(const Elf32_Ehdr *eh, const Elf32_Phdr *ph, unsigned long bias)
{
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_PHDR)
			return ph[i].p_vaddr + bias;
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && eh->e_phoff >= ph[i].p_offset &&
		    eh->e_phoff < ph[i].p_offset + ph[i].p_filesz)
			return ph[i].p_vaddr + bias + (eh->e_phoff - ph[i].p_offset);
	return 0;
}

static void note_layout(struct mm_struct *mm, const Elf32_Phdr *ph, unsigned long bias)
{
	unsigned long s = ph->p_vaddr + bias, e = s + ph->p_memsz;

	if (ph->p_flags & PF_X) {
		if (!mm->start_code || s < mm->start_code)
			mm->start_code = s;
		mm->end_code = max(mm->end_code, s + ph->p_filesz);
	} else {
		if (!mm->start_data || s < mm->start_data)
			mm->start_data = s;
		mm->end_data = max(mm->end_data, s + ph->p_filesz);
	}
	mm->brk = max(mm->brk, ALIGN_UP(e, PAGE_SIZE));
}

static int load_elf(struct linux_binprm *b, struct mm_struct *mm, struct user_stack_info *si)
{
	const Elf32_Ehdr *eh = (const void *)b->buf;
	struct elf_info info;
	const char *why;
	unsigned long bias;
	int err = elf_check(b->buf, b->buf_len, (u64)b->size, &info, &why);

	if (err)
		return err;
	bias = info.type == ET_DYN ? ELF_ET_DYN_BASE - info.start : 0;
	for (unsigned int i = 0; i < info.phnum; i++) {
		if (info.phdr[i].p_type != PT_LOAD || !info.phdr[i].p_memsz)
			continue;
		err = map_segment(b, mm, &info.phdr[i], bias);
		if (err)
			return err;
		note_layout(mm, &info.phdr[i], bias);
	}
	mm->start_brk = mm->brk;
	mm->exe_path = kmalloc(PATH_MAX);
	if (mm->exe_path && vfs_path_name(&b->file->f_path, mm->exe_path, PATH_MAX) < 0)
		strscpy(mm->exe_path, b->filename, PATH_MAX);
	si->entry = info.entry + bias;
	si->phdr = phdr_address(eh, info.phdr, bias);
	si->phnum = info.phnum;
	return 0;
}

/* The new stack's top pages: the image user_stack_build laid out, copied in. */
static int setup_stack(struct linux_binprm *b, struct mm_struct *mm, struct user_stack_info *si,
		       unsigned long *sp)
{
	size_t size = b->len + strlen(b->execfn) + 1024;
	char *img = kzalloc(size);
	unsigned long base;
	int err;

	if (!img)
		return -ENOMEM;
	err = insert_vma(mm, STACK_TOP - STACK_SIZE_MAX, STACK_TOP, VM_READ | VM_WRITE | VM_GROWSDOWN,
			 "[stack]", 0);
	if (err)
		goto out;
	get_random_bytes(si->random, sizeof(si->random));
	si->uid = current->user.uid;
	si->euid = current->user.euid;
	si->gid = current->user.gid;
	si->egid = current->user.egid;
	si->hwcap = cpu_hwcap();
	err = user_stack_build(img, size, STACK_TOP, b->strings, b->len, b->argc, b->envc,
			       b->execfn, si);
	if (err)
		goto out;
	*sp = si->sp;
	base = si->sp & ~(PAGE_SIZE - 1);
	for (unsigned long a = base; a < STACK_TOP; a += PAGE_SIZE) {
		char *page = user_page_kaddr(mm, a);
		unsigned long from = max(a, si->sp);

		if (!page) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(page + (from - a), img + (from - (STACK_TOP - size)), a + PAGE_SIZE - from);
	}
	mm->start_stack = si->sp;
	mm->arg_start = si->arg_start;
	mm->arg_end = si->env_start;
	mm->env_start = si->env_start;
	mm->env_end = si->env_end;
out:
	kfree(img);
	return err;
}

void exec_release_old(struct task_struct *p)
{
	struct user_task *u = &p->user;

	if (u->vfork_done) {
		complete(u->vfork_done);
		u->vfork_done = NULL;
	}
	if (u->mm) {
		struct mm_struct *mm = u->mm;

		u->mm = NULL;
		if (p == current)
			switch_mm(NULL);
		mmput(mm);
	}
}

static void start_thread(struct pt_regs *regs, unsigned long eip, unsigned long esp)
{
	memset(regs, 0, sizeof(*regs));
	regs->eip = eip;
	regs->esp = esp;
	regs->cs = __USER_CS;
	regs->ds = regs->es = regs->ss = __USER_DS;
	regs->eflags = 0x202; /* IF */
}

/* Past the point of no return: the new image replaces the old. */
static void exec_commit(struct linux_binprm *b, struct mm_struct *mm, struct pt_regs *regs,
			struct user_stack_info *si, unsigned long sp)
{
	const char *base = strrchr(b->execfn, '/');
	struct task_struct *me = current;

	exec_release_old(me);
	me->user.mm = mm;
	switch_mm(mm);
	close_on_exec(me->user.files);
	flush_signal_handlers(me);
	memset(me->user.tls_array, 0, sizeof(me->user.tls_array));
	load_TLS(me->user.tls_array);
	__asm__ volatile("fninit");
	strscpy(me->comm, base ? base + 1 : b->execfn, sizeof(me->comm));
	start_thread(regs, si->entry, sp);
}

static void free_binprm(struct linux_binprm *b)
{
	if (b->file)
		vfs_close(b->file);
	kfree(b->strings);
	kfree(b->filename);
	kfree(b->execfn);
	kfree(b->buf);
}

static int prepare_binprm(struct linux_binprm *b, const char *path, char *const *argv,
			  char *const *envp, bool from_user)
{
	int n;

	b->strings = kmalloc(MAX_ARG_BYTES);
	b->buf = kzalloc(BINPRM_BUF_SIZE + 1);
	b->filename = kstrdup(path);
	b->execfn = kstrdup(path);
	if (!b->strings || !b->buf || !b->filename || !b->execfn)
		return -ENOMEM;
	n = copy_strings(b, argv, from_user);
	if (n < 0)
		return n;
	b->argc = n;
	n = copy_strings(b, envp, from_user);
	if (n < 0)
		return n;
	b->envc = n;
	return 0;
}

/* Opens the file, following "#!" to its interpreter. */
static int find_binary(struct linux_binprm *b)
{
	int err;

	for (int depth = 0;; depth++) {
		err = open_exec(b);
		if (err)
			return err;
		if (b->buf_len < 2 || b->buf[0] != '#' || b->buf[1] != '!')
			return 0;
		if (depth == MAX_INTERP_DEPTH)
			return -ELOOP;
		err = load_script(b);
		if (err)
			return err;
		vfs_close(b->file);
		b->file = NULL;
	}
}

static int do_execve(const char *path, char *const *argv, char *const *envp, bool from_user,
		     struct pt_regs *regs)
{
	struct linux_binprm b = { 0 };
	struct user_stack_info si = { 0 };
	struct mm_struct *mm = NULL;
	unsigned long sp;
	int err = prepare_binprm(&b, path, argv, envp, from_user);

	if (!err)
		err = find_binary(&b);
	if (!err && !(mm = mm_alloc()))
		err = -ENOMEM;
	if (!err)
		err = load_elf(&b, mm, &si);
	if (!err)
		err = setup_stack(&b, mm, &si, &sp);
	if (err) {
		mmput(mm);
		free_binprm(&b);
		return err;
	}
	exec_commit(&b, mm, regs, &si, sp);
	free_binprm(&b);
	return 0;
}

long sys_execve(const char __user *filename, char *const __user *argv, char *const __user *envp)
{
	char *path;
	long err = getname(filename, &path);

	if (err)
		return err;
	err = do_execve(path, argv, envp, true, task_pt_regs(current));
	putname(path);
	return err; /* 0: eax starts at 0, as Linux's */
}

int kernel_execve(const char *path, char *const argv[], char *const envp[])
{
	struct pt_regs regs;
	int err;

	err = do_execve(path, argv, envp, false, &regs);

	if (err)
		return err;
	current->flags &= ~PF_KTHREAD;
	user_trap_exit(&regs); /* returns with interrupts off, until the iret */
	start_user(&regs);
}
