package io.pinmx.rma;

/**
 * Which of a group's members take part in a scoped message helper ({@code armci_msg_group_bcast_scope},
 * {@code armci_msg_group_gop_scope}, {@code armci_msg_sel_scope}).
 */
public enum ArmciScope
{
    /** {@code SCOPE_ALL}: every member. */
    ALL,
    /** {@code SCOPE_NODE}: the members on the caller's host ({@link Rma#sameNode(int)}); each host's take part apart. */
    NODE,
    /** {@code SCOPE_MASTERS}: the lowest-ranked member of each host; the other members take no part. */
    MASTERS
}
