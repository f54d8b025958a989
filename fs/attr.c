/*
 * attr.c: changing an inode's mode and owner (Linux's fs/attr.c): who may
 * change what, the set-ID bits a chown or chmod drops, and the copy for
 * filesystems that keep their inodes themselves (ramfs, tmpfs).
 */
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/fs.h>

static bool may_chown(const struct inode *inode, const struct iattr *attr)
{
	if (fs_capable())
		return true;
	/* the owner may give the file to itself only */
	return current_fsuid() == inode->i_uid && attr->ia_uid == inode->i_uid;
}

static bool may_chgrp(const struct inode *inode, const struct iattr *attr)
{
	if (fs_capable())
		return true;
	/* the owner may pick one of its own groups, or keep the group */
	return current_fsuid() == inode->i_uid &&
	       (in_group_p(attr->ia_gid) || attr->ia_gid == inode->i_gid);
}

/* 0 if the caller may make the change, else -EPERM; a chmod may lose S_ISGID here. */
int inode_change_ok(const struct inode *inode, struct iattr *attr)
{
	unsigned int gid;

	if ((attr->ia_valid & ATTR_UID) && !may_chown(inode, attr))
		return -EPERM;
	if ((attr->ia_valid & ATTR_GID) && !may_chgrp(inode, attr))
		return -EPERM;
	if (!(attr->ia_valid & ATTR_MODE))
		return 0;
	if (current_fsuid() != inode->i_uid && !fs_capable())
		return -EPERM;
	gid = attr->ia_valid & ATTR_GID ? attr->ia_gid : inode->i_gid;
	if (!in_group_p(gid) && !fs_capable())
		attr->ia_mode &= ~S_ISGID; /* setgid only to a group of one's own */
	return 0;
}

/* A chown of a non-directory: set-user-ID goes, set-group-ID where group-exec is set. */
static void kill_suid(const struct inode *inode, struct iattr *attr)
{
	unsigned int want = attr->ia_valid & (ATTR_KILL_SUID | ATTR_KILL_SGID);
	umode_t mode = inode->i_mode, kill = 0;

	attr->ia_valid &= ~want;
	if (S_ISDIR(mode))
		return;
	if ((want & ATTR_KILL_SUID) && (mode & S_ISUID))
		kill |= S_ISUID;
	if ((want & ATTR_KILL_SGID) && (mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
		kill |= S_ISGID;
	if (!kill)
		return;
	attr->ia_valid |= ATTR_MODE;
	attr->ia_mode = mode & ~kill;
}

/* The whole change (the VFS's lock held): checked, then kept by the filesystem. */
int notify_change(struct inode *inode, struct iattr *attr)
{
	int err;

	if (attr->ia_valid & ATTR_MODE) /* the type never changes */
		attr->ia_mode = (attr->ia_mode & S_IALLUGO) | (inode->i_mode & ~S_IALLUGO);
	kill_suid(inode, attr);
	err = inode_change_ok(inode, attr);
	if (err)
		return err;
	if (!inode->i_op || !inode->i_op->setattr)
		return -EPERM;
	return inode->i_op->setattr(inode, attr);
}

int simple_setattr(struct inode *inode, const struct iattr *attr)
{
	if (attr->ia_valid & ATTR_UID)
		inode->i_uid = attr->ia_uid;
	if (attr->ia_valid & ATTR_GID)
		inode->i_gid = attr->ia_gid;
	if (attr->ia_valid & ATTR_MODE)
		inode->i_mode = attr->ia_mode;
	return 0;
}
