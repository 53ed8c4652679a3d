// SPDX-License-Identifier: GPL-2.0
/*
 * pinmx: /dev/pinmx endpoints, ioctl validation and dispatch, parameters.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/overflow.h>
#include <linux/poll.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "pinmx.h"

unsigned int pinmx_default_mode = PINMX_PIN_OVERLAPPED;
module_param_named(pin_mode, pinmx_default_mode, uint, 0444);
MODULE_PARM_DESC(pin_mode, "default pin mode: 0 declare, 1 on demand, 2 overlapped");

unsigned int pinmx_chunk_min_pages = 16;
module_param_named(chunk_min_pages, pinmx_chunk_min_pages, uint, 0444);
MODULE_PARM_DESC(chunk_min_pages, "first overlapped pin chunk, pages");

unsigned int pinmx_chunk_max_pages = 1024;
module_param_named(chunk_max_pages, pinmx_chunk_max_pages, uint, 0444);
MODULE_PARM_DESC(chunk_max_pages, "largest overlapped pin chunk, pages");

unsigned long pinmx_budget_pages = 262144;
module_param_named(budget_pages, pinmx_budget_pages, ulong, 0644);
MODULE_PARM_DESC(budget_pages, "pages pinned by all endpoints before LRU idle regions are unpinned");

static DEFINE_IDA(pinmx_endpoint_ida);
static const struct file_operations pinmx_fops;

static int pinmx_open(struct inode *inode, struct file *file)
{
	struct pinmx_endpoint *ep = kzalloc(sizeof(*ep), GFP_KERNEL);

	if (!ep)
		return -ENOMEM;
	mutex_init(&ep->lock);
	xa_init_flags(&ep->pulls, XA_FLAGS_ALLOC1);
	xa_init_flags(&ep->puts, XA_FLAGS_ALLOC1);
	spin_lock_init(&ep->put_seq_lock);
	INIT_LIST_HEAD(&ep->puts_running);
	ep->mode = pinmx_default_mode;
	ep->chunk_min = pinmx_chunk_min_pages;
	ep->chunk_max = pinmx_chunk_max_pages;
	pinmx_net_endpoint_init(ep);
	file->private_data = ep;
	return 0;
}

static int pinmx_release(struct inode *inode, struct file *file)
{
	struct pinmx_endpoint *ep = file->private_data;
	struct pinmx_region *region;
	u32 id;

	/* Unreachable from the network first, then no pull runs on a region. */
	pinmx_net_release(ep);
	for_each_set_bit(id, ep->regions.used, PINMX_MAX_REGIONS + 1) {
		region = pinmx_ids_find(&ep->regions, id);
		pinmx_ids_remove(&ep->regions, id);
		pinmx_region_destroy(region);
	}
	pinmx_ids_free(&ep->regions);
	if (ep->id)
		ida_free(&pinmx_endpoint_ida, ep->id);
	kfree(ep);
	return 0;
}

static long pinmx_ioc_info(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_info info = {
		.abi_version = PINMX_ABI_VERSION,
		.features = PINMX_FEATURE_PIN_DECLARE |
			    PINMX_FEATURE_PIN_ON_DEMAND |
			    PINMX_FEATURE_PIN_OVERLAPPED |
			    PINMX_FEATURE_LOCAL_COPY |
			    PINMX_FEATURE_INVALIDATE | PINMX_FEATURE_BUDGET |
			    PINMX_FEATURE_NET_IFACE | PINMX_FEATURE_NET_SEND |
			    PINMX_FEATURE_NET_EVENT_RING |
			    PINMX_FEATURE_NET_PULL | PINMX_FEATURE_NET_WAIT |
			    PINMX_FEATURE_NET_LOCAL_PULL |
			    PINMX_FEATURE_NET_PUT |
			    PINMX_FEATURE_NET_ATOMIC |
			    PINMX_FEATURE_NET_PULL_CANCEL |
			    PINMX_FEATURE_NET_HOLD_WRITES,
		.max_segments = PINMX_MAX_SEGMENTS,
		.max_regions = PINMX_MAX_REGIONS,
		.page_size = PAGE_SIZE,
		.budget_pages = READ_ONCE(pinmx_budget_pages),
		.max_region_bytes = PINMX_MAX_REGION_BYTES,
	};

	mutex_lock(&ep->lock);
	info.pin_mode = ep->mode;
	info.endpoint_id = ep->id;
	info.chunk_min_pages = ep->chunk_min;
	info.chunk_max_pages = ep->chunk_max;
	mutex_unlock(&ep->lock);
	return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long pinmx_ioc_hello(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_hello req;
	int id;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.reserved)
		return -EINVAL;
	if (req.abi_version != PINMX_ABI_VERSION)
		return -EPROTONOSUPPORT;
	mutex_lock(&ep->lock);
	if (ep->id) {
		mutex_unlock(&ep->lock);
		return -EALREADY;
	}
	id = ida_alloc_min(&pinmx_endpoint_ida, 1, GFP_KERNEL);
	if (id < 0) {
		mutex_unlock(&ep->lock);
		return id;
	}
	WRITE_ONCE(ep->id, id);
	mutex_unlock(&ep->lock);
	req.endpoint_id = id;
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;
}

/**
 * pinmx_ep_take - take an operation out of its endpoint table; process
 *	context
 * @ep: endpoint owning @xa.
 * @xa: @ep's table of pulls or puts.
 * @nr: that table's count.
 * @id: @entry's handle in @xa.
 * @entry: the operation its end work is about to free.
 *
 * Whoever takes an operation out of its table frees it: the end work or the
 * endpoint's release, whichever comes first.
 *
 * Return: true if @entry was still in @xa and the caller now owns it.
 */
bool pinmx_ep_take(struct pinmx_endpoint *ep, struct xarray *xa,
		   unsigned int *nr, unsigned long id, void *entry)
{
	bool mine;

	mutex_lock(&ep->lock);
	mine = xa_cmpxchg(xa, id, entry, NULL, 0) == entry;
	if (mine)
		(*nr)--;
	mutex_unlock(&ep->lock);
	return mine;
}

/**
 * pinmx_ep_take_any - take any operation out of an endpoint table; process
 *	context
 * @ep: endpoint owning @xa.
 * @xa: @ep's table of pulls or puts.
 * @nr: that table's count.
 *
 * Return: the operation, now the caller's to free, or NULL if @xa is empty.
 */
void *pinmx_ep_take_any(struct pinmx_endpoint *ep, struct xarray *xa,
			unsigned int *nr)
{
	unsigned long id = 0;
	void *entry;

	mutex_lock(&ep->lock);
	entry = xa_find(xa, &id, ULONG_MAX, XA_PRESENT);
	if (entry) {
		xa_erase(xa, id);
		(*nr)--;
	}
	mutex_unlock(&ep->lock);
	return entry;
}

static int pinmx_check_segment(const struct pinmx_segment *seg)
{
	u64 end;

	if (!seg->len)
		return -EINVAL;
	if (!seg->vaddr)
		return -EFAULT;
	if (check_add_overflow(seg->vaddr, seg->len, &end))
		return -EOVERFLOW;
	if (!access_ok(u64_to_user_ptr(seg->vaddr), seg->len))
		return -EFAULT;
	return 0;
}

/* Look a region up and take a user reference; @own: caller must own it. */
struct pinmx_region *pinmx_get_region(struct pinmx_endpoint *ep,
					     u32 id, bool own)
{
	struct pinmx_region *region;

	mutex_lock(&ep->lock);
	region = pinmx_ids_find(&ep->regions, id);
	if (!region)
		region = ERR_PTR(-ENOENT);
	else if (own && region->mm != current->mm)
		region = ERR_PTR(-EACCES);
	else if (!pinmx_region_get_user(region))
		region = ERR_PTR(-ENOENT);
	mutex_unlock(&ep->lock);
	return region;
}

static int pinmx_check_range(struct pinmx_region *region, u64 off, u64 len)
{
	u64 end;

	if (!len)
		return -EINVAL;
	if (check_add_overflow(off, len, &end))
		return -EOVERFLOW;
	if (end > region->length)
		return -ERANGE;
	return 0;
}

static int pinmx_publish_region(struct pinmx_endpoint *ep,
				struct pinmx_region *region, u32 *id)
{
	int err;

	mutex_lock(&ep->lock);
	err = pinmx_ids_add(&ep->regions, region);
	if (err > 0) {
		region->id = err;
		*id = err;
		err = 0;
	}
	mutex_unlock(&ep->lock);
	return err;
}

static void pinmx_unpublish_region(struct pinmx_endpoint *ep, u32 id)
{
	struct pinmx_region *region;

	mutex_lock(&ep->lock);
	region = pinmx_ids_find(&ep->regions, id);
	if (region)
		pinmx_ids_remove(&ep->regions, id);
	mutex_unlock(&ep->lock);
	if (region)
		pinmx_region_destroy(region);
}

static long pinmx_ioc_declare(struct pinmx_endpoint *ep, void __user *uarg)
{
	/* Most regions have a few segments: no allocation for those. */
	struct pinmx_segment few[PINMX_REGION_FEW_SEGS], *segs;
	struct pinmx_region *region;
	struct pinmx_declare req;
	unsigned int i;
	u64 total;
	int err;
	u32 id;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.pad ||
	    (req.flags & ~(PINMX_DECLARE_WRITABLE | PINMX_DECLARE_REMOTE)))
		return -EINVAL;
	if ((req.flags & PINMX_DECLARE_REMOTE) &&
	    !(req.flags & PINMX_DECLARE_WRITABLE))
		return -EINVAL;
	if (!req.nr_segments)
		return -EINVAL;
	if (req.nr_segments > PINMX_MAX_SEGMENTS)
		return -E2BIG;
	if (req.nr_segments <= ARRAY_SIZE(few)) {
		segs = few;
		if (copy_from_user(segs, u64_to_user_ptr(req.segments),
				   req.nr_segments * sizeof(*segs)))
			return -EFAULT;
	} else {
		segs = memdup_user(u64_to_user_ptr(req.segments),
				   array_size(req.nr_segments, sizeof(*segs)));
		if (IS_ERR(segs))
			return PTR_ERR(segs);
	}
	for (i = 0, total = 0; i < req.nr_segments; i++) {
		err = pinmx_check_segment(&segs[i]);
		if (err)
			goto out_free;
		/* Bounds the page arrays allocated for the region. */
		total += segs[i].len;
		if (total > PINMX_MAX_REGION_BYTES) {
			err = -EFBIG;
			goto out_free;
		}
	}
	mutex_lock(&ep->lock);
	region = pinmx_region_create(ep, segs, req.nr_segments, req.flags);
	mutex_unlock(&ep->lock);
	err = PTR_ERR_OR_ZERO(region);
	if (err)
		goto out_free;
	if (region->mode == PINMX_PIN_DECLARE) {
		atomic_inc(&region->users);
		err = pinmx_region_pin_all(region);
		pinmx_region_put_user(region);
		if (err) {
			pinmx_region_destroy(region);
			goto out_free;
		}
	}
	err = pinmx_publish_region(ep, region, &id);
	if (err) {
		pinmx_region_destroy(region);
		goto out_free;
	}
	req.region_id = id;
	req.length = region->length;
	if (copy_to_user(uarg, &req, sizeof(req))) {
		pinmx_unpublish_region(ep, id);
		err = -EFAULT;
	}
out_free:
	if (segs != few)
		kfree(segs);
	return err;
}

static long pinmx_ioc_destroy(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct pinmx_region_ref req;
	struct pinmx_region *region;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.pad)
		return -EINVAL;
	mutex_lock(&ep->lock);
	region = pinmx_ids_find(&ep->regions, req.region_id);
	if (!region)
		region = ERR_PTR(-ENOENT);
	else if (region->mm != current->mm)
		region = ERR_PTR(-EACCES);
	else
		pinmx_ids_remove(&ep->regions, req.region_id);
	mutex_unlock(&ep->lock);
	if (IS_ERR(region))
		return PTR_ERR(region);
	pinmx_region_destroy(region);
	return 0;
}

static long pinmx_ioc_range(struct pinmx_endpoint *ep, void __user *uarg,
			    bool pin)
{
	struct pinmx_region *region;
	struct pinmx_range req;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.pad)
		return -EINVAL;
	region = pinmx_get_region(ep, req.region_id, true);
	if (IS_ERR(region))
		return PTR_ERR(region);
	err = pinmx_check_range(region, req.offset, req.len);
	if (!err && pin)
		err = pinmx_region_ensure(region, req.offset, req.len, true);
	else if (!err)
		pinmx_region_unpin_range(region, req.offset, req.len);
	pinmx_region_put_user(region);
	return err;
}

static long pinmx_ioc_region_info(struct pinmx_endpoint *ep,
				  void __user *uarg)
{
	struct pinmx_region_info req;
	struct pinmx_region *region;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.reserved)
		return -EINVAL;
	region = pinmx_get_region(ep, req.region_id, true);
	if (IS_ERR(region))
		return PTR_ERR(region);
	req.nr_segments = region->nr_segs;
	req.length = region->length;
	req.nr_pages = region->nr_pages;
	req.pinned_pages = READ_ONCE(region->nr_pinned);
	req.pin_mode = region->mode;
	req.flags = region->flags;
	req.key = region->key;
	pinmx_region_put_user(region);
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;
}

/*
 * Hold a region's remote writes back, or let them in. The receive softirq
 * reads the flag under RCU, so once a grace period has passed after it is
 * set no PUT or ATOMIC that found it clear is still writing.
 */
static long pinmx_ioc_hold_writes(struct pinmx_endpoint *ep,
				  void __user *uarg)
{
	struct pinmx_hold_writes req;
	struct pinmx_region *region;
	long err = 0;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.reserved || req.hold > 1)
		return -EINVAL;
	region = pinmx_get_region(ep, req.region_id, true);
	if (IS_ERR(region))
		return PTR_ERR(region);
	if (!(region->flags & PINMX_DECLARE_REMOTE)) {
		err = -EINVAL;
	} else if (req.hold) {
		WRITE_ONCE(region->writes_held, true);
		synchronize_net();
	} else {
		smp_store_release(&region->writes_held, false);
	}
	pinmx_region_put_user(region);
	return err;
}

static bool pinmx_ranges_overlap(u64 a, u64 b, u64 len)
{
	return a < b + len && b < a + len;
}

static long pinmx_do_copy(struct pinmx_endpoint *src_ep,
			  struct pinmx_endpoint *ep,
			  const struct pinmx_copy *req)
{
	struct pinmx_region *src, *dst;
	int err;

	src = pinmx_get_region(src_ep, req->src_region, false);
	if (IS_ERR(src))
		return PTR_ERR(src);
	dst = pinmx_get_region(ep, req->dst_region, true);
	if (IS_ERR(dst)) {
		err = PTR_ERR(dst);
		goto out_src;
	}
	err = -EPERM;
	if (!dst->writable)
		goto out_dst;
	err = pinmx_check_range(src, req->src_offset, req->len);
	if (!err)
		err = pinmx_check_range(dst, req->dst_offset, req->len);
	if (!err && src == dst &&
	    pinmx_ranges_overlap(req->src_offset, req->dst_offset, req->len))
		err = -EINVAL;
	if (!err)
		err = pinmx_copy(src, req->src_offset, dst, req->dst_offset,
				 req->len, NULL);
out_dst:
	pinmx_region_put_user(dst);
out_src:
	pinmx_region_put_user(src);
	return err;
}

static long pinmx_ioc_copy(struct pinmx_endpoint *ep, void __user *uarg)
{
	struct file *src_file = NULL;
	struct pinmx_endpoint *src_ep = ep;
	struct pinmx_copy req;
	long err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.flags || req.reserved || req.src_fd < -1)
		return -EINVAL;
	if (req.src_fd >= 0) {
		src_file = fget(req.src_fd);
		if (!src_file)
			return -EBADF;
		if (src_file->f_op != &pinmx_fops) {
			fput(src_file);
			return -EBADF;
		}
		src_ep = src_file->private_data;
	}
	err = pinmx_do_copy(src_ep, ep, &req);
	if (src_file)
		fput(src_file);
	return err;
}

static long pinmx_ioc_set_pin_mode(struct pinmx_endpoint *ep,
				   void __user *uarg)
{
	struct pinmx_pin_mode_req req;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.pad || req.pin_mode >= PINMX_PIN_NR_MODES)
		return -EINVAL;
	if (!req.chunk_min_pages)
		req.chunk_min_pages = pinmx_chunk_min_pages;
	if (!req.chunk_max_pages)
		req.chunk_max_pages = pinmx_chunk_max_pages;
	if (req.chunk_max_pages > PINMX_CHUNK_LIMIT ||
	    req.chunk_min_pages > req.chunk_max_pages)
		return -EINVAL;
	mutex_lock(&ep->lock);
	ep->mode = req.pin_mode;
	ep->chunk_min = req.chunk_min_pages;
	ep->chunk_max = req.chunk_max_pages;
	mutex_unlock(&ep->lock);
	return 0;
}

static long pinmx_ioc_counters(void __user *uarg)
{
	struct pinmx_counters *c;
	long err = 0;
	int i;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->nr_counters = PINMX_CNT_NR;
	for (i = 0; i < PINMX_CNT_NR; i++)
		c->value[i] = atomic64_read(&pinmx_counters[i]);
	if (copy_to_user(uarg, c, sizeof(*c)))
		err = -EFAULT;
	kfree(c);
	return err;
}

static long pinmx_ioctl_endpoint(struct pinmx_endpoint *ep, unsigned int cmd,
				 void __user *uarg)
{
	switch (cmd) {
	case PINMX_IOC_DECLARE:
		return pinmx_ioc_declare(ep, uarg);
	case PINMX_IOC_DESTROY:
		return pinmx_ioc_destroy(ep, uarg);
	case PINMX_IOC_PIN:
		return pinmx_ioc_range(ep, uarg, true);
	case PINMX_IOC_UNPIN:
		return pinmx_ioc_range(ep, uarg, false);
	case PINMX_IOC_REGION_INFO:
		return pinmx_ioc_region_info(ep, uarg);
	case PINMX_IOC_COPY:
		return pinmx_ioc_copy(ep, uarg);
	case PINMX_IOC_SET_PIN_MODE:
		return pinmx_ioc_set_pin_mode(ep, uarg);
	case PINMX_IOC_ATTACH:
		return pinmx_ioc_attach(uarg);
	case PINMX_IOC_BIND:
		return pinmx_ioc_bind(ep, uarg);
	case PINMX_IOC_SEND:
		return pinmx_ioc_send(ep, uarg);
	case PINMX_IOC_PULL:
		return pinmx_ioc_pull(ep, uarg);
	case PINMX_IOC_PUT:
		return pinmx_ioc_put(ep, uarg);
	case PINMX_IOC_ATOMIC:
		return pinmx_ioc_atomic(ep, uarg);
	case PINMX_IOC_PUTV:
		return pinmx_ioc_putv(ep, uarg);
	case PINMX_IOC_PULLV:
		return pinmx_ioc_pullv(ep, uarg);
	case PINMX_IOC_PULL_CANCEL:
		return pinmx_ioc_pull_cancel(ep, uarg);
	case PINMX_IOC_HOLD_WRITES:
		return pinmx_ioc_hold_writes(ep, uarg);
	case PINMX_IOC_WAIT:
		return pinmx_ioc_wait(ep, uarg);
	default:
		return -ENOTTY;
	}
}

static void pinmx_count_error(long err)
{
	switch (err) {
	case -EINVAL:
	case -EOVERFLOW:
	case -ERANGE:
	case -E2BIG:
	case -EFBIG:
		pinmx_count(PINMX_CNT_ERR_INVAL, 1);
		break;
	case -ENOENT:
		pinmx_count(PINMX_CNT_ERR_NOENT, 1);
		break;
	case -EACCES:
		pinmx_count(PINMX_CNT_ERR_ACCESS, 1);
		break;
	}
}

static long pinmx_ioctl(struct file *file, unsigned int cmd,
			unsigned long arg)
{
	struct pinmx_endpoint *ep = file->private_data;
	void __user *uarg = (void __user *)arg;
	long err;

	switch (cmd) {
	case PINMX_IOC_INFO:
		return pinmx_ioc_info(ep, uarg);
	case PINMX_IOC_COUNTERS:
		return pinmx_ioc_counters(uarg);
	case PINMX_IOC_HELLO:
		err = pinmx_ioc_hello(ep, uarg);
		break;
	default:
		if (_IOC_TYPE(cmd) != PINMX_IOC_MAGIC)
			return -ENOTTY;
		err = READ_ONCE(ep->id) ? pinmx_ioctl_endpoint(ep, cmd, uarg)
					: -EBADFD;
		break;
	}
	pinmx_count_error(err);
	return err;
}

static int pinmx_mmap(struct file *file, struct vm_area_struct *vma)
{
	return pinmx_net_mmap(file->private_data, vma);
}

static __poll_t pinmx_poll(struct file *file, poll_table *wait)
{
	return pinmx_net_poll(file->private_data, file, wait);
}

static const struct file_operations pinmx_fops = {
	.owner = THIS_MODULE,
	.open = pinmx_open,
	.release = pinmx_release,
	.mmap = pinmx_mmap,
	.poll = pinmx_poll,
	.unlocked_ioctl = pinmx_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice pinmx_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "pinmx",
	.fops = &pinmx_fops,
	.mode = 0666,
};

static int pinmx_check_params(void)
{
	if (pinmx_default_mode >= PINMX_PIN_NR_MODES ||
	    !pinmx_chunk_min_pages ||
	    pinmx_chunk_min_pages > pinmx_chunk_max_pages ||
	    pinmx_chunk_max_pages > PINMX_CHUNK_LIMIT)
		return -EINVAL;
	return 0;
}

static int __init pinmx_init(void)
{
	int err;

	err = pinmx_check_params();
	if (err)
		return err;
	err = pinmx_region_init();
	if (err)
		return err;
	pinmx_debugfs_init();
	err = pinmx_pull_init();
	if (err)
		goto err_debugfs;
	err = pinmx_put_init();
	if (err)
		goto err_pull;
	err = pinmx_net_init();
	if (err)
		goto err_put;
	err = misc_register(&pinmx_misc);
	if (err)
		goto err_net;
	return 0;

err_net:
	pinmx_net_exit();
err_put:
	pinmx_put_exit();
err_pull:
	pinmx_pull_exit();
err_debugfs:
	pinmx_debugfs_exit();
	pinmx_region_exit();
	return err;
}

static void __exit pinmx_exit(void)
{
	misc_deregister(&pinmx_misc);
	pinmx_net_exit();
	pinmx_put_exit();
	pinmx_pull_exit();
	pinmx_debugfs_exit();
	pinmx_region_exit();
}

module_init(pinmx_init);
module_exit(pinmx_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Open-MX-style decoupled, overlapped user page pinning");
/* Also dkms.conf's PACKAGE_VERSION: kmod/packaging-tests.sh checks they agree. */
MODULE_VERSION("0.1.0");
MODULE_INFO(abi_version, __stringify(PINMX_ABI_VERSION));
