constexpr int _kiln_lanes = sizeof(_type_reduce) <= 8    ? 32
                            : sizeof(_type_reduce) <= 16 ? 16
                            : sizeof(_type_reduce) < 128 ? int(128 / sizeof(_type_reduce))
                                                         : 1;
constexpr int _kiln_tile = sizeof(_type_reduce) < 8192 ? int(8192 / sizeof(_type_reduce)) : 1;
constexpr int _kiln_run = 64;
constexpr int _kiln_few_rows = 32;
