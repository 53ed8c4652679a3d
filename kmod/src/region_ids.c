// SPDX-License-Identifier: GPL-2.0
/*
 * Region ids of one endpoint: a table indexed by id that the receive
 * softirq reads under RCU, and a bitmap of the ids in use.
 *
 * The table only grows (doubling, the old one freed after a grace period),
 * so declaring and destroying a region allocates and frees nothing here;
 * an xarray allocated and RCU-freed a node per cycle whenever an endpoint
 * went from one region to two and back.
 */
#include <linux/bitmap.h>
#include <linux/nospec.h>
#include <linux/slab.h>

#include "pinmx.h"

#define PINMX_IDS_FIRST_SIZE	16

struct pinmx_region_table {
	struct rcu_head rcu;
	unsigned int size;
	struct pinmx_region __rcu *slot[];
};

static struct pinmx_region_table *pinmx_ids_table(struct pinmx_region_ids *ids)
{
	return rcu_dereference_protected(ids->table, 1);
}

/* Make room for @id; caller holds the endpoint lock. */
static int pinmx_ids_grow(struct pinmx_region_ids *ids, u32 id)
{
	struct pinmx_region_table *old = pinmx_ids_table(ids), *table;
	unsigned int size = old ? old->size : PINMX_IDS_FIRST_SIZE, i;

	while (size <= id)
		size *= 2;
	size = min_t(unsigned int, size, PINMX_MAX_REGIONS + 1);
	table = kzalloc(struct_size(table, slot, size), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	table->size = size;
	for (i = 0; old && i < old->size; i++)
		RCU_INIT_POINTER(table->slot[i],
				 rcu_dereference_protected(old->slot[i], 1));
	rcu_assign_pointer(ids->table, table);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/**
 * pinmx_ids_add - give @region the lowest free id; endpoint lock held
 * @ids: the endpoint's ids.
 * @region: region to publish.
 *
 * Return: the id (>= 1), -ENOSPC when PINMX_MAX_REGIONS are in use, or
 * -ENOMEM.
 */
int pinmx_ids_add(struct pinmx_region_ids *ids, struct pinmx_region *region)
{
	struct pinmx_region_table *table = pinmx_ids_table(ids);
	unsigned long id = find_next_zero_bit(ids->used,
					      PINMX_MAX_REGIONS + 1, 1);
	int err;

	if (id > PINMX_MAX_REGIONS)
		return -ENOSPC;
	if (!table || id >= table->size) {
		err = pinmx_ids_grow(ids, id);
		if (err)
			return err;
		table = pinmx_ids_table(ids);
	}
	__set_bit(id, ids->used);
	rcu_assign_pointer(table->slot[id], region);
	return id;
}

/**
 * pinmx_ids_find - the region of @id, or NULL
 * @ids: the endpoint's ids.
 * @id: any value from user space or the wire.
 *
 * Under the endpoint lock, which keeps the region found from being freed;
 * it may be dead. Under RCU alone, use pinmx_ids_get().
 */
struct pinmx_region *pinmx_ids_find(struct pinmx_region_ids *ids, u32 id)
{
	struct pinmx_region_table *table = rcu_dereference_check(ids->table, 1);

	if (!table || id >= table->size)
		return NULL;
	id = array_index_nospec(id, table->size);
	return rcu_dereference_check(table->slot[id], 1);
}

/**
 * pinmx_ids_get - the region of @id with a reference, or NULL; under RCU
 * @ids: the endpoint's ids.
 * @id: any value from user space or the wire.
 *
 * Regions come from a SLAB_TYPESAFE_BY_RCU cache: the struct found may be
 * freed and reused for another region before the reference is taken, so
 * once it is held, @id must still name that struct. The region may be dead.
 */
struct pinmx_region *pinmx_ids_get(struct pinmx_region_ids *ids, u32 id)
{
	struct pinmx_region *region = pinmx_ids_find(ids, id);

	if (!region || !kref_get_unless_zero(&region->kref))
		return NULL;
	/* Read the slot again only after the reference is taken. */
	smp_acquire__after_ctrl_dep();
	if (pinmx_ids_find(ids, id) != region) {
		pinmx_region_put(region);
		return NULL;
	}
	return region;
}

/**
 * pinmx_ids_remove - unpublish @id; endpoint lock held
 * @ids: the endpoint's ids.
 * @id: an id in use.
 *
 * Readers under RCU may still hold the region until a grace period ends.
 */
void pinmx_ids_remove(struct pinmx_region_ids *ids, u32 id)
{
	RCU_INIT_POINTER(pinmx_ids_table(ids)->slot[id], NULL);
	__clear_bit(id, ids->used);
}

/* The endpoint is gone from every reader: free the table at once. */
void pinmx_ids_free(struct pinmx_region_ids *ids)
{
	kfree(pinmx_ids_table(ids));
	RCU_INIT_POINTER(ids->table, NULL);
}
