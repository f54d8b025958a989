/*
 * pipe.c: pipes (Linux's fs/pipe.c): a 4 KiB ring shared by a reading and
 * a writing file. A reader sleeps while it is empty and a writer remains;
 * a writer sleeps while it is full; with no reader left a write gets EPIPE
 * (and its process SIGPIPE, sys_write's part). O_NONBLOCK gives EAGAIN.
 */
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/fs.h>
#include <kobold/poll.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/uaccess.h>
#include <kobold/wait.h>

#define PIPE_SIZE 4096

struct pipe_inode_info {
	char buf[PIPE_SIZE];
	size_t head, len;
	int readers, writers;
	struct wait_queue_head wait;
	struct inode inode; /* S_IFIFO, for fstat */
};

static struct super_block pipefs_sb = { .s_dev_minor = 12 }; /* stat's device: pipefs */
/* fchmod and fchown keep their change, as 2.6's notify_change did for an inode with no setattr. */
static const struct inode_operations pipefs_inode_ops = { .setattr = simple_setattr };

static struct pipe_inode_info *pipe_of(struct file *f) { return f->private_data; }

static ssize_t pipe_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	struct pipe_inode_info *p = pipe_of(f);
	size_t done = 0;

	while (!p->len) {
		if (!p->writers)
			return 0;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_user(p->wait, p->len || !p->writers))
			return -ERESTARTSYS; /* EINTR, or read again after an SA_RESTART handler */
	}
	while (done < n && p->len) {
		buf[done++] = p->buf[p->head];
		p->head = (p->head + 1) % PIPE_SIZE;
		p->len--;
	}
	wake_up(&p->wait);
	return (ssize_t)done;
}

static ssize_t pipe_write(struct file *f, const char *buf, size_t n, loff_t *pos)
{
	struct pipe_inode_info *p = pipe_of(f);
	size_t done = 0;

	while (done < n) {
		if (!p->readers)
			return done ? (ssize_t)done : -EPIPE;
		if (p->len == PIPE_SIZE) {
			if (f->f_flags & O_NONBLOCK)
				return done ? (ssize_t)done : -EAGAIN;
			wake_up(&p->wait);
			if (wait_event_user(p->wait, p->len < PIPE_SIZE || !p->readers))
				return done ? (ssize_t)done : -ERESTARTSYS;
			continue;
		}
		p->buf[(p->head + p->len) % PIPE_SIZE] = buf[done++];
		p->len++;
	}
	wake_up(&p->wait);
	return (ssize_t)done;
}

static unsigned int pipe_poll(struct file *f, struct poll_table_struct *wait)
{
	struct pipe_inode_info *p = pipe_of(f);
	unsigned int mask = 0;

	poll_wait(f, &p->wait, wait);
	if ((f->f_flags & O_ACCMODE) == O_RDONLY) {
		if (p->len)
			mask |= POLLIN;
		if (!p->writers)
			mask |= POLLHUP;
	} else {
		if (p->len < PIPE_SIZE)
			mask |= POLLOUT;
		if (!p->readers)
			mask |= POLLERR;
	}
	return mask;
}

static int pipe_release(struct inode *inode, struct file *f)
{
	struct pipe_inode_info *p = pipe_of(f);

	if ((f->f_flags & O_ACCMODE) == O_RDONLY)
		p->readers--;
	else
		p->writers--;
	wake_up(&p->wait);
	if (!p->readers && !p->writers)
		kfree(p);
	return 0;
}

static const struct file_operations pipe_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.poll = pipe_poll,
	.release = pipe_release,
};

static struct file *pipe_file(struct pipe_inode_info *p, unsigned int flags)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->f_op = &pipe_fops;
	f->f_flags = flags;
	f->private_data = p;
	f->f_path.inode = &p->inode; /* no mount: path_put leaves it alone */
	p->inode.i_count = 1 << 30;  /* never evicted: it dies with the pipe */
	return f;
}

long sys_pipe2(int __user *fds, int flags)
{
	struct pipe_inode_info *p = kzalloc(sizeof(*p));
	struct file *r = NULL, *w = NULL;
	int fd[2] = { -1, -1 };
	bool cloexec = flags & O_CLOEXEC;

	if (!p)
		return -ENOMEM;
	init_waitqueue_head(&p->wait);
	p->inode.i_mode = S_IFIFO | 0600;
	p->inode.i_uid = current_fsuid(); /* 2.6's get_pipe_inode: the maker's */
	p->inode.i_gid = current_fsgid();
	p->inode.i_op = &pipefs_inode_ops;
	p->inode.i_sb = &pipefs_sb;
	r = pipe_file(p, O_RDONLY | (flags & O_NONBLOCK));
	w = pipe_file(p, O_WRONLY | (flags & O_NONBLOCK));
	if (!r || !w)
		goto nomem;
	p->readers = p->writers = 1;
	fd[0] = fd_install_from(current->user.files, r, 0, cloexec);
	if (fd[0] >= 0)
		fd[1] = fd_install_from(current->user.files, w, 0, cloexec);
	if (fd[1] < 0 || copy_to_user(fds, fd, sizeof(fd))) {
		if (fd[0] >= 0)
			fd_close(current->user.files, fd[0]); /* frees r */
		else
			vfs_close(r);
		if (fd[1] >= 0)
			fd_close(current->user.files, fd[1]);
		else
			vfs_close(w);
		return fd[1] < 0 ? -EMFILE : -EFAULT;
	}
	return 0;
nomem:
	kfree(r);
	kfree(w);
	kfree(p);
	return -ENOMEM;
}

long sys_pipe(int __user *fds) { return sys_pipe2(fds, 0); }
