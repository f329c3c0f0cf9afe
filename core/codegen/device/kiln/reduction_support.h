template <int N>
struct _kiln_dims {
    long long v[N];
};
struct _kiln_index {
    long long n;
    __device__ long long size() const { return n; }
};
struct alignas(16) _kiln_storage {
    unsigned char bytes[16];
};
