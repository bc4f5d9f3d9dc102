# il-prng.sh: interloper's own random-number generator, in POSIX sh.
# Sourced by interloper-link and interloper-sweep, so that a seed gives the
# same orders on any machine and under any shell.
# shellcheck shell=sh
# xoshiro128** (Blackman and Vigna, 2018) on four 32-bit words, seeded by
# running a counter (step 0x9e3779b9) through murmur3's fmix32.  Every
# intermediate value stays below 2^49, so 64-bit signed shell arithmetic
# (dash, bash, busybox, ksh) computes it exactly.  Results go to globals:
# command substitution would fork once per number.
M=4294967295 # 2^32 - 1

# mul32 A B: _r = A*B mod 2^32 for A, B < 2^32, without overflowing 2^63:
# split B into 16-bit halves.
mul32() {
	_r=$((($1 * ($2 & 65535) + ((($1 * ($2 >> 16)) & 65535) << 16)) & M))
}

# fmix32 X: murmur3's finaliser, a bijection on 32-bit words.  Sets _h.
fmix32() {
	_h=$(($1 ^ ($1 >> 16)))
	mul32 "$_h" 2246822507 # 0x85ebca6b
	_h=$((_r ^ (_r >> 13)))
	mul32 "$_h" 3266489909 # 0xc2b2ae35
	_h=$((_r ^ (_r >> 16)))
}

# rng_init SEED STREAM: independent streams for one seed (stream 0: the
# object orders; stream K: the function orders of binary K).
rng_init() {
	fmix32 "$2"
	_k=$(($1 ^ _h))
	_k=$(((_k + 2654435769) & M)); fmix32 "$_k"; s0=$_h
	_k=$(((_k + 2654435769) & M)); fmix32 "$_k"; s1=$_h
	_k=$(((_k + 2654435769) & M)); fmix32 "$_k"; s2=$_h
	_k=$(((_k + 2654435769) & M)); fmix32 "$_k"; s3=$_h
	[ $((s0 | s1 | s2 | s3)) -ne 0 ] || s0=1 # the one forbidden state
}

# rng_next: _r = next 32-bit output; rotl(s1 * 5, 7) * 9, then the
# xoshiro128 state update.
rng_next() {
	_x=$(((s1 * 5) & M))
	_x=$((((_x << 7) | (_x >> 25)) & M))
	_r=$(((_x * 9) & M))
	_t=$(((s1 << 9) & M))
	s2=$((s2 ^ s0))
	s3=$((s3 ^ s1))
	s1=$((s1 ^ s2))
	s0=$((s0 ^ s3))
	s2=$((s2 ^ _t))
	s3=$((((s3 << 11) | (s3 >> 21)) & M))
}

# rng_below N: _r uniform in [0, N), 1 <= N <= 2^32, by rejection: draws
# at or above the largest multiple of N below 2^32 are thrown away, so
# there is no modulo bias.
rng_below() {
	_lim=$((4294967296 - 4294967296 % $1))
	while :; do
		rng_next
		[ "$_r" -ge "$_lim" ] || break
	done
	_r=$((_r % $1))
}

