// SPDX-License-Identifier: GPL-2.0
/* Module-wide counters, read by PINMX_IOC_COUNTERS and debugfs. */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "pinmx.h"

atomic64_t pinmx_counters[PINMX_CNT_NR];

static const char *const pinmx_counter_names[PINMX_CNT_NR] = {
	[PINMX_CNT_PIN_CALLS]		= "pin_calls",
	[PINMX_CNT_PAGES_PINNED_NOW]	= "pages_pinned_now",
	[PINMX_CNT_PAGES_PINNED_TOTAL]	= "pages_pinned_total",
	[PINMX_CNT_PAGES_UNPINNED]	= "pages_unpinned",
	[PINMX_CNT_INVALIDATIONS]	= "invalidations",
	[PINMX_CNT_INVALIDATE_EAGAIN]	= "invalidate_eagain",
	[PINMX_CNT_PIN_RETRIES]		= "pin_retries",
	[PINMX_CNT_OVERLAP_WAITS]	= "overlap_waits",
	[PINMX_CNT_BUDGET_EVICTIONS]	= "budget_evictions",
	[PINMX_CNT_COPIES]		= "copies",
	[PINMX_CNT_COPY_BYTES]		= "copy_bytes",
	[PINMX_CNT_REGIONS_NOW]		= "regions_now",
	[PINMX_CNT_ERR_FAULT]		= "err_fault",
	[PINMX_CNT_ERR_MEMLOCK]		= "err_memlock",
	[PINMX_CNT_ERR_BUDGET]		= "err_budget",
	[PINMX_CNT_ERR_ACCESS]		= "err_access",
	[PINMX_CNT_ERR_INVAL]		= "err_inval",
	[PINMX_CNT_ERR_NOENT]		= "err_noent",
	[PINMX_CNT_TX_FRAMES]		= "tx_frames",
	[PINMX_CNT_RX_FRAMES]		= "rx_frames",
	[PINMX_CNT_RX_NOT_ATTACHED]	= "rx_drop_not_attached",
	[PINMX_CNT_RX_SHORT]		= "rx_drop_short",
	[PINMX_CNT_RX_BAD_VERSION]	= "rx_drop_bad_version",
	[PINMX_CNT_RX_UNKNOWN_KIND]	= "rx_drop_unknown_kind",
	[PINMX_CNT_RX_BAD_LENGTH]	= "rx_drop_bad_length",
	[PINMX_CNT_RX_BAD_FIELD]	= "rx_drop_bad_field",
	[PINMX_CNT_RX_OUT_OF_RANGE]	= "rx_drop_out_of_range",
	[PINMX_CNT_RX_WRONG_ENDPOINT]	= "rx_drop_wrong_endpoint",
	[PINMX_CNT_RX_WRONG_SESSION]	= "rx_drop_wrong_session",
	[PINMX_CNT_RX_RING_FULL]	= "rx_drop_ring_full",
	[PINMX_CNT_PULLS_STARTED]	= "pulls_started",
	[PINMX_CNT_PULLS_DONE]		= "pulls_done",
	[PINMX_CNT_PULLS_FAILED]	= "pulls_failed",
	[PINMX_CNT_PULL_BYTES]		= "pull_bytes",
	[PINMX_CNT_PULLS_LOCAL]		= "pulls_local",
	[PINMX_CNT_PULL_REQUESTS]	= "pull_requests",
	[PINMX_CNT_PULL_RESENDS]	= "pull_resends",
	[PINMX_CNT_PULL_TIMEOUTS]	= "pull_timeouts",
	[PINMX_CNT_PULL_REPLIES_SENT]	= "pull_replies_sent",
	[PINMX_CNT_PULL_REPLIES_RECEIVED] = "pull_replies_received",
	[PINMX_CNT_PULL_DUPLICATES]	= "pull_duplicates",
	[PINMX_CNT_PULL_BAD_REPLY]	= "pull_bad_reply",
	[PINMX_CNT_OVERLAP_MISSES]	= "overlap_misses",
	[PINMX_CNT_SERVE_MISSES]	= "serve_misses",
	[PINMX_CNT_NACKS_SENT]		= "nacks_sent",
	[PINMX_CNT_TX_ERRORS]		= "tx_errors",
	[PINMX_CNT_RX_NO_KEY]		= "rx_no_key",
	[PINMX_CNT_RX_BAD_KEY]		= "rx_bad_key",
	[PINMX_CNT_RX_NOT_EXPOSED]	= "rx_not_exposed",
	[PINMX_CNT_PUTS_STARTED]	= "puts_started",
	[PINMX_CNT_PUTS_DONE]		= "puts_done",
	[PINMX_CNT_PUTS_FAILED]		= "puts_failed",
	[PINMX_CNT_PUT_FRAMES_SENT]	= "put_frames_sent",
	[PINMX_CNT_PUT_RESENDS]		= "put_resends",
	[PINMX_CNT_PUT_TIMEOUTS]	= "put_timeouts",
	[PINMX_CNT_PUT_FRAMES_WRITTEN]	= "put_frames_written",
	[PINMX_CNT_PUT_MISSES]		= "put_misses",
	[PINMX_CNT_PUT_DUPLICATE_ACKS]	= "put_duplicate_acks",
	[PINMX_CNT_ATOMICS_DONE]	= "atomics_done",
	[PINMX_CNT_ATOMICS_FAILED]	= "atomics_failed",
	[PINMX_CNT_ATOMICS_APPLIED]	= "atomics_applied",
	[PINMX_CNT_ATOMIC_REPLAYS]	= "atomic_replays",
	[PINMX_CNT_ATOMIC_MISSES]	= "atomic_misses",
	[PINMX_CNT_ATOMIC_DUPLICATE_REPLIES] = "atomic_duplicate_replies",
	[PINMX_CNT_PUT_STALE]		= "put_stale",
	[PINMX_CNT_PULLS_CANCELLED]	= "pulls_cancelled",
	[PINMX_CNT_WRITES_HELD]		= "writes_held",
};

static struct dentry *pinmx_debugfs_dir;

static int pinmx_counters_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < PINMX_CNT_NR; i++)
		seq_printf(m, "%s %lld\n", pinmx_counter_names[i],
			   atomic64_read(&pinmx_counters[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pinmx_counters);

static int pinmx_interfaces_show(struct seq_file *m, void *v)
{
	pinmx_net_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pinmx_interfaces);

void pinmx_debugfs_init(void)
{
	pinmx_debugfs_dir = debugfs_create_dir("pinmx", NULL);
	debugfs_create_file("counters", 0444, pinmx_debugfs_dir, NULL,
			    &pinmx_counters_fops);
	debugfs_create_file("interfaces", 0444, pinmx_debugfs_dir, NULL,
			    &pinmx_interfaces_fops);
}

void pinmx_debugfs_exit(void)
{
	debugfs_remove_recursive(pinmx_debugfs_dir);
}
