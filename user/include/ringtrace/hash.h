/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * FNV-1a, the one byte hash the tools' tables use (names, keys, colours),
 * 32 and 64 bits: start from RT_FNV32_INIT / RT_FNV64_INIT, or from a
 * previous call's result to hash several parts as one.
 */
#ifndef RINGTRACE_HASH_H
#define RINGTRACE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define RT_FNV32_INIT	2166136261u
#define RT_FNV32_PRIME	16777619u
#define RT_FNV64_INIT	0xcbf29ce484222325ull
#define RT_FNV64_PRIME	0x100000001b3ull

/* @h carried over the @n bytes at @p. */
static inline uint32_t rt_fnv32(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * RT_FNV32_PRIME;
	return h;
}

/* @h carried over the string @s, its NUL left out. */
static inline uint32_t rt_fnv32_str(uint32_t h, const char *s)
{
	while (*s)
		h = (h ^ (unsigned char)*s++) * RT_FNV32_PRIME;
	return h;
}

static inline uint64_t rt_fnv64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * RT_FNV64_PRIME;
	return h;
}

#endif
