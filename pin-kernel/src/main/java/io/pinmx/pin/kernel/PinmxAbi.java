package io.pinmx.pin.kernel;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * The kernel ABI of kmod/include/uapi/pinmx.h in Java: constants (named as in the header without the
 * {@code PINMX_} prefix), ioctl numbers, and every struct as a {@link StructLayout} whose member names are the C
 * field names. {@code PinmxAbiTest} compiles a C program against the header and fails on any difference in a
 * size, an offset, a constant or an ioctl number, so this class and the header cannot drift apart silently.
 * Offsets used on the hot path are {@code static final} longs taken from the layouts.
 */
public final class PinmxAbi
{
    /** ABI version this binding speaks; PINMX_IOC_HELLO with any other fails with EPROTONOSUPPORT. */
    public static final int ABI_VERSION = 4;
    static final int IOC_MAGIC = 0xB7;

    public static final int MAX_SEGMENTS = 256;
    public static final int MAX_REGIONS = 4096;
    public static final long MAX_REGION_BYTES = 1L << 34;

    public static final long FEATURE_PIN_DECLARE = 1L;
    public static final long FEATURE_PIN_ON_DEMAND = 1L << 1;
    public static final long FEATURE_PIN_OVERLAPPED = 1L << 2;
    public static final long FEATURE_LOCAL_COPY = 1L << 3;
    public static final long FEATURE_INVALIDATE = 1L << 4;
    public static final long FEATURE_BUDGET = 1L << 5;
    public static final long FEATURE_NET_IFACE = 1L << 16;
    public static final long FEATURE_NET_SEND = 1L << 17;
    public static final long FEATURE_NET_EVENT_RING = 1L << 18;
    public static final long FEATURE_NET_PULL = 1L << 19;
    public static final long FEATURE_NET_WAIT = 1L << 20;
    public static final long FEATURE_NET_LOCAL_PULL = 1L << 21;
    public static final long FEATURE_NET_PUT = 1L << 22;
    public static final long FEATURE_NET_ATOMIC = 1L << 23;
    public static final long FEATURE_NET_PULL_CANCEL = 1L << 24;
    public static final long FEATURE_NET_HOLD_WRITES = 1L << 25;

    public static final int ETH_P_MXOE = 0x86DF;
    public static final int MXOE_VERSION = 1;
    public static final int MXOE_COMMON_BYTES = 32;
    public static final int MXOE_MIN_BYTES = 46;
    public static final int MXOE_MAX_BYTES = 1500;

    public static final int PIN_DECLARE = 0;
    public static final int PIN_ON_DEMAND = 1;
    public static final int PIN_OVERLAPPED = 2;
    public static final int PIN_NR_MODES = 3;

    public static final int DECLARE_WRITABLE = 1;
    public static final int DECLARE_REMOTE = 1 << 1;

    public static final int COUNTERS_MAX = 128;
    public static final int IFNAMSIZ = 16;

    public static final int EVENT_FRAME = 1;
    public static final int EVENT_PULL_DONE = 2;
    public static final int EVENT_PULL_FAILED = 3;
    public static final int EVENT_PUT_DONE = 4;
    public static final int EVENT_PUT_FAILED = 5;
    public static final int EVENT_ATOMIC_DONE = 6;
    public static final int EVENT_ATOMIC_FAILED = 7;

    public static final int PULL_OK = 0;
    public static final int PULL_FAILED = 2;
    public static final int PULL_SEGMENT_FAULT = 3;
    public static final int PULL_UNKNOWN_REGION = 4;
    public static final int PULL_OUT_OF_RANGE = 5;
    public static final int PULL_TIMEOUT = 6;
    public static final int PULL_NO_RESOURCES = 7;
    public static final int PULL_BAD_KEY = 8;
    public static final int PULL_CANCELLED = 9;

    public static final int RING_SLOTS = 256;
    public static final int RING_SLOT_BYTES = 2048;
    public static final int RING_CTL_BYTES = 4096;
    public static final int RING_BYTES = RING_CTL_BYTES + RING_SLOTS * RING_SLOT_BYTES;

    public static final int PULL_WIRE = 1;
    public static final int PULL_MAX_BLOCK_FRAMES = 64;
    public static final int MAX_PULLS = 1024;

    public static final long PUT_MAX_BYTES = 16L << 20;
    public static final int MAX_PUTS = 1024;
    public static final int PUT_MAX_PIECES = 1024;

    public static final int ATOMIC_FETCH_ADD = 1;
    public static final int ATOMIC_SWAP = 2;
    public static final int ATOMIC_CAS = 3;
    public static final int ATOMIC_ACCUMULATE = 4;
    public static final int ATOMIC_NR_OPS = 5;
    public static final int ATOMIC_WINDOW = 256;
    public static final int ATOMIC_MAX_WORDS = 179;

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT;
    private static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;

    public static final StructLayout INFO = struct("pinmx_info",
        U32.withName("abi_version"), U32.withName("pin_mode"), U64.withName("features"),
        U32.withName("max_segments"), U32.withName("max_regions"), U32.withName("endpoint_id"),
        U32.withName("page_size"), U32.withName("chunk_min_pages"), U32.withName("chunk_max_pages"),
        U64.withName("budget_pages"), U64.withName("max_region_bytes"),
        MemoryLayout.sequenceLayout(3, U64).withName("reserved"));
    public static final StructLayout HELLO = struct("pinmx_hello",
        U32.withName("abi_version"), U32.withName("endpoint_id"), U64.withName("reserved"));
    public static final StructLayout SEGMENT = struct("pinmx_segment",
        U64.withName("vaddr"), U64.withName("len"));
    public static final StructLayout DECLARE = struct("pinmx_declare",
        U64.withName("segments"), U32.withName("nr_segments"), U32.withName("flags"), U32.withName("region_id"),
        U32.withName("pad"), U64.withName("length"));
    public static final StructLayout REGION_REF = struct("pinmx_region_ref",
        U32.withName("region_id"), U32.withName("pad"));
    public static final StructLayout RANGE = struct("pinmx_range",
        U32.withName("region_id"), U32.withName("pad"), U64.withName("offset"), U64.withName("len"));
    public static final StructLayout REGION_INFO = struct("pinmx_region_info",
        U32.withName("region_id"), U32.withName("nr_segments"), U64.withName("length"), U64.withName("nr_pages"),
        U64.withName("pinned_pages"), U32.withName("pin_mode"), U32.withName("flags"), U64.withName("key"),
        U64.withName("reserved"));
    public static final StructLayout COPY = struct("pinmx_copy",
        U32.withName("src_fd"), U32.withName("src_region"), U64.withName("src_offset"), U32.withName("dst_region"),
        U32.withName("flags"), U64.withName("dst_offset"), U64.withName("len"), U64.withName("reserved"));
    public static final StructLayout PIN_MODE_REQ = struct("pinmx_pin_mode_req",
        U32.withName("pin_mode"), U32.withName("chunk_min_pages"), U32.withName("chunk_max_pages"),
        U32.withName("pad"));
    public static final StructLayout COUNTERS = struct("pinmx_counters",
        U32.withName("nr_counters"), U32.withName("pad"),
        MemoryLayout.sequenceLayout(COUNTERS_MAX, U64).withName("value"));
    public static final StructLayout ATTACH = struct("pinmx_attach",
        MemoryLayout.sequenceLayout(IFNAMSIZ, U8).withName("ifname"), U32.withName("ifindex"), U32.withName("mtu"),
        U64.withName("reserved"));
    public static final StructLayout BIND = struct("pinmx_bind",
        MemoryLayout.sequenceLayout(IFNAMSIZ, U8).withName("ifname"), U32.withName("index"), U32.withName("pad"),
        U32.withName("session"), MemoryLayout.sequenceLayout(6, U8).withName("mac"), U16.withName("pad2"),
        U32.withName("ifindex"), U32.withName("mtu"));
    public static final StructLayout SEND = struct("pinmx_send",
        U64.withName("header"), U64.withName("payload"), U32.withName("header_len"), U32.withName("payload_len"),
        MemoryLayout.sequenceLayout(6, U8).withName("dst_mac"), U16.withName("pad"), U64.withName("reserved"));
    public static final StructLayout EVENT = struct("pinmx_event",
        U32.withName("type"), U32.withName("frame_len"), U32.withName("ifindex"),
        MemoryLayout.sequenceLayout(6, U8).withName("src_mac"), MemoryLayout.sequenceLayout(2, U8).withName("pad"),
        U32.withName("reserved"));
    public static final StructLayout PULL_EVENT = struct("pinmx_pull_event",
        U32.withName("handle"), U32.withName("status"), U64.withName("bytes"), U32.withName("error"),
        U8.withName("nack_reason"), U8.withName("local"), U16.withName("segment"), U64.withName("address"));
    public static final StructLayout RING_CTL = struct("pinmx_ring_ctl",
        U32.withName("producer"), MemoryLayout.sequenceLayout(15, U32).withName("pad"), U32.withName("consumer"));
    public static final StructLayout PULL = struct("pinmx_pull",
        MemoryLayout.sequenceLayout(6, U8).withName("peer_mac"), U8.withName("peer_endpoint"), U8.withName("flags"),
        U32.withName("peer_session"), U32.withName("remote_region"), U32.withName("local_region"),
        U32.withName("handle"), U64.withName("remote_offset"), U64.withName("local_offset"), U64.withName("length"),
        U64.withName("remote_key"));
    public static final StructLayout WAIT = struct("pinmx_wait",
        U64.withName("timeout_ns"), U32.withName("ready"), U32.withName("pad"));
    public static final StructLayout PUT = struct("pinmx_put",
        MemoryLayout.sequenceLayout(6, U8).withName("peer_mac"), U8.withName("peer_endpoint"), U8.withName("flags"),
        U32.withName("peer_session"), U32.withName("remote_region"), U32.withName("local_region"),
        U32.withName("handle"), U32.withName("pad"), U32.withName("pad2"), U64.withName("remote_offset"),
        U64.withName("local_offset"),
        U64.withName("length"), U64.withName("remote_key"), U64.withName("reserved"));
    public static final StructLayout PULL_CANCEL = struct("pinmx_pull_cancel",
        U32.withName("handle"), U32.withName("cancelled"), U64.withName("reserved"));
    public static final StructLayout HOLD_WRITES = struct("pinmx_hold_writes",
        U32.withName("region_id"), U32.withName("hold"), U64.withName("reserved"));
    public static final StructLayout PUT_PIECE = struct("pinmx_put_piece",
        U64.withName("remote_offset"), U64.withName("local_offset"), U64.withName("len"));
    public static final StructLayout PUTV = struct("pinmx_putv",
        MemoryLayout.sequenceLayout(6, U8).withName("peer_mac"), U8.withName("peer_endpoint"), U8.withName("flags"),
        U32.withName("peer_session"), U32.withName("remote_region"), U32.withName("local_region"),
        U32.withName("handle"), U32.withName("nr_pieces"), U32.withName("pad"), U64.withName("pieces"),
        U64.withName("remote_key"), U64.withName("reserved"));
    public static final StructLayout ATOMIC = struct("pinmx_atomic",
        MemoryLayout.sequenceLayout(6, U8).withName("peer_mac"), U8.withName("peer_endpoint"), U8.withName("op"),
        U32.withName("peer_session"), U32.withName("remote_region"), U32.withName("width"), U32.withName("handle"),
        U32.withName("count"), U32.withName("pad"), U64.withName("remote_offset"), U64.withName("remote_key"),
        U64.withName("operand"),
        U64.withName("compare"), U64.withName("values"), U64.withName("reserved"));
    public static final StructLayout ATOMIC_EVENT = struct("pinmx_atomic_event",
        U32.withName("handle"), U32.withName("status"), U64.withName("old"), U32.withName("error"),
        U8.withName("nack_reason"), U8.withName("op"), U16.withName("pad"), U64.withName("address"));

    /** Every struct of the header, for the layout test. */
    public static final List<StructLayout> STRUCTS = List.of(INFO, HELLO, SEGMENT, DECLARE, REGION_REF, RANGE,
        REGION_INFO, COPY, PIN_MODE_REQ, COUNTERS, ATTACH, BIND, SEND, EVENT, PULL_EVENT, RING_CTL, PULL, WAIT, PUT,
        PULL_CANCEL, HOLD_WRITES, PUT_PIECE, PUTV, ATOMIC, ATOMIC_EVENT);

    public static final int IOC_INFO = ior(0x01, INFO);
    public static final int IOC_HELLO = iowr(0x02, HELLO);
    public static final int IOC_DECLARE = iowr(0x03, DECLARE);
    public static final int IOC_DESTROY = iow(0x04, REGION_REF);
    public static final int IOC_PIN = iow(0x05, RANGE);
    public static final int IOC_UNPIN = iow(0x06, RANGE);
    public static final int IOC_REGION_INFO = iowr(0x07, REGION_INFO);
    public static final int IOC_COPY = iow(0x08, COPY);
    public static final int IOC_SET_PIN_MODE = iow(0x09, PIN_MODE_REQ);
    public static final int IOC_COUNTERS = ior(0x0a, COUNTERS);
    public static final int IOC_ATTACH = iowr(0x20, ATTACH);
    public static final int IOC_BIND = iowr(0x21, BIND);
    public static final int IOC_SEND = iow(0x22, SEND);
    public static final int IOC_PULL = iow(0x23, PULL);
    public static final int IOC_WAIT = iowr(0x24, WAIT);
    public static final int IOC_PUT = iow(0x25, PUT);
    public static final int IOC_ATOMIC = iow(0x26, ATOMIC);
    public static final int IOC_PUTV = iow(0x27, PUTV);
    public static final int IOC_PULL_CANCEL = iowr(0x29, PULL_CANCEL);
    public static final int IOC_HOLD_WRITES = iow(0x2a, HOLD_WRITES);

    static final long INFO_ABI_VERSION = offset(INFO, "abi_version");
    static final long INFO_FEATURES = offset(INFO, "features");
    static final long INFO_MAX_SEGMENTS = offset(INFO, "max_segments");
    static final long INFO_MAX_REGIONS = offset(INFO, "max_regions");
    static final long HELLO_ABI_VERSION = offset(HELLO, "abi_version");
    static final long HELLO_ENDPOINT_ID = offset(HELLO, "endpoint_id");
    static final long SEGMENT_VADDR = offset(SEGMENT, "vaddr");
    static final long SEGMENT_LEN = offset(SEGMENT, "len");
    static final long DECLARE_SEGMENTS = offset(DECLARE, "segments");
    static final long DECLARE_NR_SEGMENTS = offset(DECLARE, "nr_segments");
    static final long DECLARE_FLAGS = offset(DECLARE, "flags");
    static final long DECLARE_REGION_ID = offset(DECLARE, "region_id");
    static final long REGION_REF_REGION_ID = offset(REGION_REF, "region_id");
    static final long REGION_INFO_REGION_ID = offset(REGION_INFO, "region_id");
    static final long REGION_INFO_PINNED_PAGES = offset(REGION_INFO, "pinned_pages");
    static final long REGION_INFO_KEY = offset(REGION_INFO, "key");
    static final long PIN_MODE_REQ_PIN_MODE = offset(PIN_MODE_REQ, "pin_mode");
    static final long COUNTERS_VALUE = offset(COUNTERS, "value");
    static final long ATTACH_IFNAME = offset(ATTACH, "ifname");
    static final long BIND_IFNAME = offset(BIND, "ifname");
    static final long BIND_INDEX = offset(BIND, "index");
    static final long BIND_SESSION = offset(BIND, "session");
    static final long BIND_MAC = offset(BIND, "mac");
    static final long BIND_MTU = offset(BIND, "mtu");
    static final long SEND_HEADER = offset(SEND, "header");
    static final long SEND_PAYLOAD = offset(SEND, "payload");
    static final long SEND_HEADER_LEN = offset(SEND, "header_len");
    static final long SEND_PAYLOAD_LEN = offset(SEND, "payload_len");
    static final long SEND_DST_MAC = offset(SEND, "dst_mac");
    static final long EVENT_TYPE = offset(EVENT, "type");
    static final long EVENT_FRAME_LEN = offset(EVENT, "frame_len");
    static final long EVENT_SRC_MAC = offset(EVENT, "src_mac");
    static final long PULL_EVENT_HANDLE = offset(PULL_EVENT, "handle");
    static final long PULL_EVENT_STATUS = offset(PULL_EVENT, "status");
    static final long PULL_EVENT_BYTES = offset(PULL_EVENT, "bytes");
    static final long PULL_EVENT_ERROR = offset(PULL_EVENT, "error");
    static final long PULL_EVENT_NACK_REASON = offset(PULL_EVENT, "nack_reason");
    static final long PULL_EVENT_LOCAL = offset(PULL_EVENT, "local");
    static final long PULL_EVENT_SEGMENT = offset(PULL_EVENT, "segment");
    static final long PULL_EVENT_ADDRESS = offset(PULL_EVENT, "address");
    static final long RING_CTL_PRODUCER = offset(RING_CTL, "producer");
    static final long RING_CTL_CONSUMER = offset(RING_CTL, "consumer");
    static final long PULL_PEER_MAC = offset(PULL, "peer_mac");
    static final long PULL_PEER_ENDPOINT = offset(PULL, "peer_endpoint");
    static final long PULL_FLAGS = offset(PULL, "flags");
    static final long PULL_PEER_SESSION = offset(PULL, "peer_session");
    static final long PULL_REMOTE_REGION = offset(PULL, "remote_region");
    static final long PULL_LOCAL_REGION = offset(PULL, "local_region");
    static final long PULL_HANDLE = offset(PULL, "handle");
    static final long PULL_REMOTE_OFFSET = offset(PULL, "remote_offset");
    static final long PULL_LOCAL_OFFSET = offset(PULL, "local_offset");
    static final long PULL_LENGTH = offset(PULL, "length");
    static final long PULL_REMOTE_KEY = offset(PULL, "remote_key");
    static final long WAIT_TIMEOUT_NS = offset(WAIT, "timeout_ns");
    static final long PULL_CANCEL_HANDLE = offset(PULL_CANCEL, "handle");
    static final long PULL_CANCEL_CANCELLED = offset(PULL_CANCEL, "cancelled");
    static final long HOLD_WRITES_REGION_ID = offset(HOLD_WRITES, "region_id");
    static final long HOLD_WRITES_HOLD = offset(HOLD_WRITES, "hold");
    static final long PUT_PEER_MAC = offset(PUT, "peer_mac");
    static final long PUT_PEER_ENDPOINT = offset(PUT, "peer_endpoint");
    static final long PUT_PEER_SESSION = offset(PUT, "peer_session");
    static final long PUT_REMOTE_REGION = offset(PUT, "remote_region");
    static final long PUT_LOCAL_REGION = offset(PUT, "local_region");
    static final long PUT_HANDLE = offset(PUT, "handle");
    static final long PUT_REMOTE_OFFSET = offset(PUT, "remote_offset");
    static final long PUT_LOCAL_OFFSET = offset(PUT, "local_offset");
    static final long PUT_LENGTH = offset(PUT, "length");
    static final long PUT_REMOTE_KEY = offset(PUT, "remote_key");
    static final long PUT_PIECE_REMOTE_OFFSET = offset(PUT_PIECE, "remote_offset");
    static final long PUT_PIECE_LOCAL_OFFSET = offset(PUT_PIECE, "local_offset");
    static final long PUT_PIECE_LEN = offset(PUT_PIECE, "len");
    static final long PUTV_PEER_MAC = offset(PUTV, "peer_mac");
    static final long PUTV_PEER_ENDPOINT = offset(PUTV, "peer_endpoint");
    static final long PUTV_PEER_SESSION = offset(PUTV, "peer_session");
    static final long PUTV_REMOTE_REGION = offset(PUTV, "remote_region");
    static final long PUTV_LOCAL_REGION = offset(PUTV, "local_region");
    static final long PUTV_HANDLE = offset(PUTV, "handle");
    static final long PUTV_NR_PIECES = offset(PUTV, "nr_pieces");
    static final long PUTV_PIECES = offset(PUTV, "pieces");
    static final long PUTV_REMOTE_KEY = offset(PUTV, "remote_key");
    static final long ATOMIC_PEER_MAC = offset(ATOMIC, "peer_mac");
    static final long ATOMIC_PEER_ENDPOINT = offset(ATOMIC, "peer_endpoint");
    static final long ATOMIC_OP = offset(ATOMIC, "op");
    static final long ATOMIC_PEER_SESSION = offset(ATOMIC, "peer_session");
    static final long ATOMIC_REMOTE_REGION = offset(ATOMIC, "remote_region");
    static final long ATOMIC_WIDTH = offset(ATOMIC, "width");
    static final long ATOMIC_HANDLE = offset(ATOMIC, "handle");
    static final long ATOMIC_COUNT = offset(ATOMIC, "count");
    static final long ATOMIC_REMOTE_OFFSET = offset(ATOMIC, "remote_offset");
    static final long ATOMIC_REMOTE_KEY = offset(ATOMIC, "remote_key");
    static final long ATOMIC_OPERAND = offset(ATOMIC, "operand");
    static final long ATOMIC_COMPARE = offset(ATOMIC, "compare");
    static final long ATOMIC_VALUES = offset(ATOMIC, "values");
    static final long ATOMIC_EVENT_HANDLE = offset(ATOMIC_EVENT, "handle");
    static final long ATOMIC_EVENT_STATUS = offset(ATOMIC_EVENT, "status");
    static final long ATOMIC_EVENT_OLD = offset(ATOMIC_EVENT, "old");
    static final long ATOMIC_EVENT_ERROR = offset(ATOMIC_EVENT, "error");
    static final long ATOMIC_EVENT_NACK_REASON = offset(ATOMIC_EVENT, "nack_reason");
    static final long ATOMIC_EVENT_ADDRESS = offset(ATOMIC_EVENT, "address");

    private static final int IOC_WRITE = 1;
    private static final int IOC_READ = 2;

    private PinmxAbi()
    {
    }

    /**
     * @param features PINMX_FEATURE_* bits.
     * @return the names of the bits set, e.g. "NET_IFACE|NET_SEND", or "none".
     */
    public static String describeFeatures(final long features)
    {
        final String[] names = {"PIN_DECLARE", "PIN_ON_DEMAND", "PIN_OVERLAPPED", "LOCAL_COPY", "INVALIDATE",
            "BUDGET"};
        final String[] netNames = {"NET_IFACE", "NET_SEND", "NET_EVENT_RING", "NET_PULL", "NET_WAIT",
            "NET_LOCAL_PULL", "NET_PUT", "NET_ATOMIC", "NET_PULL_CANCEL", "NET_HOLD_WRITES"};
        final StringBuilder text = new StringBuilder();
        for (int bit = 0; bit < 64; bit++)
        {
            if ((features & (1L << bit)) != 0)
            {
                final String name = bit < names.length ? names[bit] :
                    bit >= 16 && bit - 16 < netNames.length ? netNames[bit - 16] : "bit" + bit;
                text.append(text.isEmpty() ? "" : "|").append(name);
            }
        }
        return text.isEmpty() ? "none" : text.toString();
    }

    private static StructLayout struct(final String name, final MemoryLayout... members)
    {
        return MemoryLayout.structLayout(members).withName(name);
    }

    private static long offset(final StructLayout layout, final String field)
    {
        return layout.byteOffset(groupElement(field));
    }

    private static int ioc(final int direction, final int number, final StructLayout argument)
    {
        return direction << 30 | (int)argument.byteSize() << 16 | IOC_MAGIC << 8 | number;
    }

    private static int ior(final int number, final StructLayout argument)
    {
        return ioc(IOC_READ, number, argument);
    }

    private static int iow(final int number, final StructLayout argument)
    {
        return ioc(IOC_WRITE, number, argument);
    }

    private static int iowr(final int number, final StructLayout argument)
    {
        return ioc(IOC_READ | IOC_WRITE, number, argument);
    }
}
