struct kiln_random_words {
    unsigned long long x;
    unsigned long long y;
};
__device__ inline kiln_random_words kiln_philox(unsigned long long seed, unsigned long long k) {
    unsigned int c0 = static_cast<unsigned int>(k);
    unsigned int c1 = static_cast<unsigned int>(k >> 32);
    unsigned int c2 = 0;
    unsigned int c3 = 0;
    unsigned int k0 = static_cast<unsigned int>(seed);
    unsigned int k1 = static_cast<unsigned int>(seed >> 32);
#pragma unroll
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        const unsigned long long p0 = 0xD2511F53ull * c0;
        const unsigned long long p1 = 0xCD9E8D57ull * c2;
        const unsigned int n0 = static_cast<unsigned int>(p1 >> 32) ^ c1 ^ k0;
        const unsigned int n2 = static_cast<unsigned int>(p0 >> 32) ^ c3 ^ k1;
        c1 = static_cast<unsigned int>(p1);
        c3 = static_cast<unsigned int>(p0);
        c0 = n0;
        c2 = n2;
    }
    kiln_random_words w;
    w.x = c0 | (static_cast<unsigned long long>(c1) << 32);
    w.y = c2 | (static_cast<unsigned long long>(c3) << 32);
    return w;
}
__device__ inline unsigned long long kiln_mulhi64(unsigned long long a, unsigned long long b) {
    const unsigned long long a_lo = a & 0xffffffffull;
    const unsigned long long a_hi = a >> 32;
    const unsigned long long b_lo = b & 0xffffffffull;
    const unsigned long long b_hi = b >> 32;
    const unsigned long long hi_lo = a_hi * b_lo;
    const unsigned long long cross = ((a_lo * b_lo) >> 32) + (hi_lo & 0xffffffffull) + a_lo * b_hi;
    return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
}
