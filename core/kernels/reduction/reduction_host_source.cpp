// The host dialect's reduce kernel: loops over the blocks that one call of its entry point runs on
// one CPU thread, shaped by the variant's HostReductionLayout so that g++ vectorises the innermost
// loop wherever the layout allows it.
#include "../../codegen/kernel_entry.hpp"
#include "../elementwise/elementwise_loops.hpp"
#include "reduction_source_parts.hpp"

#include <functional>

namespace kiln::detail {

namespace {

// Lanes of a sweep, each accumulating its own elements: 128 bytes of accumulators for a `rows`
// kernel's consecutive elements (g++ keeps them in vector registers), up to 8 KiB for a `columns`
// kernel's consecutive outputs (2, 4, 8 and 16 KiB read l2norm along axis 0 of 8192² on one
// thread at 31, 59, 64 and 63% of copy). Both reduce runs of _kiln_run rows into _run_totals before
// folding them into _totals, so that a float sum adds partial sums of similar size rather than
// adding every element to one growing total.
constexpr std::string_view sweep_constants =
    "constexpr int _kiln_lanes = sizeof(_type_reduce) < 128 ? int(128 / sizeof(_type_reduce)) : "
    "1;\n"
    "constexpr int _kiln_tile = sizeof(_type_reduce) < 8192 ? int(8192 / sizeof(_type_reduce)) : "
    "1;\n"
    "constexpr int _kiln_run = 64;\n";

// How a sweep finds its rows: `start(row, tag, p)` points array input p's _rp<tag>_<name> at row
// `row` (an expression of _q), and `position(row)` is the _J of that row's lane _t.
struct Rows {
    std::function<std::string(const std::string& row, const std::string& tag, std::size_t p)> start;
    std::function<std::string(const std::string& row)> position;
};

// Every array input bound to lane _t of the row at _rp<tag>_<name>, contiguous along the lanes.
std::string lane_bindings(const ReductionDefinition& k, const ReductionVariant& v,
                          const std::string& tag) {
    std::string code;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (v.in_scalar[p]) {
            continue;
        }
        const auto& spec = k.in[p];
        const std::string qualified =
            (spec.non_const ? "" : "const ") + type_of(spec, v.in_dtypes[p]);
        code += cat({"        ", qualified, "& ", spec.name, " = reinterpret_cast<", qualified,
                     "*>(_rp", tag, "_", spec.name, ")[_t];\n"});
    }
    return code;
}

// Rows _q + 0, ..., _q + count - 1 folded into `target[_t]` for every lane _t below `width`, in
// order; with `first` (count 1), row _q's mapped elements start it.
std::string lanes_loop(const ReductionDefinition& k, const ReductionVariant& v, const Rows& rows,
                       const std::string& width, const std::string& target, int count, bool first) {
    std::string code;
    for (int u = 0; u < count; ++u) {
        for (std::size_t p = 0; p < k.in.size(); ++p) {
            if (!v.in_scalar[p]) {
                code += rows.start(u == 0 ? "_q" : "(_q + " + std::to_string(u) + ")",
                                   std::to_string(u), p);
            }
        }
    }
    code += "for (int _t = 0; _t < " + width + "; ++_t) {\n";
    code += "    _type_reduce _a = " + (first ? "_type_reduce()" : target + "[_t]") + ";\n";
    for (int u = 0; u < count; ++u) {
        const std::string row = u == 0 ? "_q" : "(_q + " + std::to_string(u) + ")";
        code += "    {\n        const " + index_type(v) + " _J = " + rows.position(row) +
                ";\n        (void)_J;\n";
        code += lane_bindings(k, v, std::to_string(u));
        code += "        const _type_reduce _v = _type_reduce(" + k.map_expr + ");\n";
        code +=
            std::string("        _a = ") + (first ? "_v" : "_kiln_reduce(_a, _v)") + ";\n    }\n";
    }
    return code + "    " + target + "[_t] = _a;\n}\n";
}

// Rows _q in [q0, q1) (q1 > q0) of `width` lanes reduced into _totals[_t]: each run of _kiln_run
// rows into _run_totals first, its first row mapped, so that no identity is needed, then four
// rows a pass, so that each pass over the lanes' totals adds four elements to each.
std::string sweep(const ReductionDefinition& k, const ReductionVariant& v, const Rows& rows,
                  const std::string& q0, const std::string& q1, const std::string& width) {
    const std::string ix = index_type(v);
    std::string code =
        "for (" + ix + " _run = " + q0 + "; _run < " + q1 + "; _run += _kiln_run) {\n";
    code += "    const " + ix + " _run_end = " + q1 + " - _run < _kiln_run ? " + q1 +
            " : _run + _kiln_run;\n";
    code += "    " + ix + " _q = _run;\n";
    code += indented(lanes_loop(k, v, rows, width, "_run_totals", 1, true), 4);
    code += "    for (++_q; _q + 3 < _run_end; _q += 4) {\n";
    code += indented(lanes_loop(k, v, rows, width, "_run_totals", 4, false), 8) + "    }\n";
    code += "    for (; _q < _run_end; ++_q) {\n";
    code += indented(lanes_loop(k, v, rows, width, "_run_totals", 1, false), 8) + "    }\n";
    const std::string each = "        for (int _t = 0; _t < " + width + "; ++_t) {\n";
    code +=
        "    if (_run == " + q0 + ") {\n" + each + "            _totals[_t] = _run_totals[_t];\n";
    code += "        }\n    } else {\n" + each +
            "            _totals[_t] = _kiln_reduce(_totals[_t], _run_totals[_t]);\n";
    return code + "        }\n    }\n}\n";
}

// `_acc` written to the partials of chunk _by, or through post_map_expr to output _o.
std::string store_result(const ReductionDefinition& k, const ReductionVariant& v) {
    std::string code = "        if (_partial != nullptr) {\n";
    code += "            reinterpret_cast<_type_reduce*>(_partial)[_o * (" + index_type(v) +
            ")_kiln_grid.grid.y + _by] = _acc;\n";
    return code + "        } else {\n            " + post_map(k, v) + "        }\n";
}

// `strided` and `rows`: each output's chunk reduced by one thread in turn. `rows` indexes plain
// pointers and, for a chunk of at least _kiln_lanes elements, sweeps rows of that many
// consecutive elements, the lanes combined in pairs at the end.
std::string output_by_output(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string ix = index_type(v);
    const MapCode map = map_code(k, v);
    std::string code = kernel_opening(Dialect::host, k.name, map.params);
    code += "    const _kiln_index _in_ind{_m * _n};\n    const _kiln_index _out_ind{_m};\n";
    code += host_block_loop(ix, true) + host_output_loop(ix);
    code += "        " + start_accumulator(k) + "\n";
    code += map.output_offsets + map.map;
    if (v.host_layout != HostReductionLayout::rows) {
        code += host_element_loop(k, ix, "_begin", "_end");
        return code + store_result(k, v) + "    }\n    }\n}\n" +
               kernel_closing(Dialect::host, k.name);
    }
    Rows rows;
    rows.start = [&](const std::string& row, const std::string& tag, std::size_t p) {
        const std::string& name = k.in[p].name;
        return cat({"char* const _rp", tag, "_", name, " = _p_", name, " + _ob_", name,
                    " + (_begin + ", row, " * (", ix, ")_kiln_lanes) * (", ix, ")sizeof(",
                    type_of(k.in[p], v.in_dtypes[p]), ");\n"});
    };
    rows.position = [&](const std::string& row) {
        return "_begin + " + row + " * (" + ix + ")_kiln_lanes + _t";
    };
    code += "            if (_end - _begin >= (" + ix + ")_kiln_lanes) {\n";
    code += "                _type_reduce _totals[_kiln_lanes];\n";
    code += "                _type_reduce _run_totals[_kiln_lanes];\n";
    code += "                const " + ix + " _rows = (_end - _begin) / (" + ix + ")_kiln_lanes;\n";
    code += indented(sweep(k, v, rows, "0", "_rows", "_kiln_lanes"), 16);
    // The elements after the last whole row, into the first lanes.
    code += "                {\n                    const " + ix + " _q = _rows;\n";
    code += indented(lanes_loop(k, v, rows, "int(_end - _begin - _q * (" + ix + ")_kiln_lanes)",
                                "_totals", 1, false),
                     20);
    code += "                }\n";
    code += "                for (int _s = 1; _s < _kiln_lanes; _s *= 2) {\n";
    code += "                    for (int _t = 0; _t + _s < _kiln_lanes; _t += 2 * _s) {\n";
    code += "                        _totals[_t] = _kiln_reduce(_totals[_t], _totals[_t + _s]);\n";
    code += "                    }\n                }\n";
    code += "                _acc = _totals[0];\n";
    if (k.identity.empty()) {
        code += "                _have = true;\n";
    }
    code += "            } else {\n" + indented(host_element_loop(k, ix, "_begin", "_end"), 4);
    code += "            }\n";
    return code + store_result(k, v) + "    }\n    }\n}\n" + kernel_closing(Dialect::host, k.name);
}

// `columns`: the block's outputs in tiles of up to _kiln_tile consecutive ones along the innermost
// output axis; for each tile, the chunk's rows _q swept in order, each row's elements read
// contiguously into the tile's lanes.
std::string tile_by_tile(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string ix = index_type(v);
    const MapCode map = map_code(k, v);
    std::string code = kernel_opening(Dialect::host, k.name, map.params);
    code += "    const _kiln_index _in_ind{_m * _n};\n    const _kiln_index _out_ind{_m};\n";
    code += host_block_loop(ix, true);
    code += "    const " + ix + " _inner = (" + ix + ")_oshape.v[" +
            std::to_string(v.out_ndim - 1) + "];\n";
    code += "    for (" + ix + " _o0 = _bx * (" + ix + ")_groups; _o0 < _last;) {\n";
    code += "        const " + ix +
            " _left = _inner - _o0 % _inner < _last - _o0 ? _inner - _o0 % "
            "_inner : _last - _o0;\n";
    code += "        const int _w = _left < (" + ix + ")_kiln_tile ? int(_left) : _kiln_tile;\n";
    std::vector<std::pair<std::string, std::string>> out_strides;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (!v.in_scalar[p]) {
            const std::string& name = k.in[p].name;
            code += cat({"        ", ix, " _ob_", name, " = 0;\n"});
            out_strides.emplace_back("_ob_" + name, "_os_" + name);
        }
    }
    code += "        " + unravel(ix, "_o0", "_oshape", v.out_ndim, out_strides) + "\n";
    Rows rows;
    rows.start = [&](const std::string& row, const std::string& tag, std::size_t p) {
        const std::string& name = k.in[p].name;
        const std::string offset = cat({"_e", tag, "_", name});
        return cat({ix, " ", offset, " = _ob_", name, ";\n",
                    unravel(ix, row, "_rshape", v.reduce_ndim, {{offset, "_rs_" + name}}),
                    "\nchar* const _rp", tag, "_", name, " = _p_", name, " + ", offset, ";\n"});
    };
    rows.position = [](const std::string& row) { return row; };
    code += "        _type_reduce _totals[_kiln_tile];\n";
    code += "        _type_reduce _run_totals[_kiln_tile];\n";
    code += "        if (_end > _begin) {\n";
    code += indented(sweep(k, v, rows, "_begin", "_end", "_w"), 12);
    code += "        }";
    if (!k.identity.empty()) {
        // An empty reduction (no identity: an error before any launch).
        code += " else {\n            for (int _t = 0; _t < _w; ++_t) {\n";
        code += "                _totals[_t] = _type_reduce(" + k.identity +
                ");\n            }\n        }";
    }
    code += "\n        for (int _t = 0; _t < _w; ++_t) {\n";
    code += "        const " + ix + " _o = _o0 + _t;\n";
    code += "        const _type_reduce _acc = _totals[_t];\n";
    code += store_result(k, v) + "        }\n        _o0 += _w;\n    }\n    }\n}\n";
    return code + kernel_closing(Dialect::host, k.name);
}

}  // namespace

std::string host_block_loop(const std::string& index, bool by_chunks) {
    std::string code = "    const long long _groups = (long long)_kiln_grid.block.x;\n";
    code +=
        "    for (unsigned long long _block = _kiln_grid.first; _block < _kiln_grid.end; "
        "++_block) {\n";
    code += "    const " + index + " _bx = (" + index + ")(_block % _kiln_grid.grid.x);\n";
    if (by_chunks) {
        code += "    const " + index + " _by = (" + index + ")(_block / _kiln_grid.grid.x);\n";
        code += "    const " + index + " _begin = _by * (" + index + ")_chunk;\n";
        code += "    const " + index + " _end = _n - _begin < _chunk ? (" + index +
                ")_n : _begin + (" + index + ")_chunk;\n";
    }
    code += "    const " + index + " _last = (_bx + 1) * (" + index + ")_groups < (" + index +
            ")_m ? (_bx + 1) * (" + index + ")_groups : (" + index + ")_m;\n";
    return code;
}

std::string host_output_loop(const std::string& index) {
    return "    for (" + index + " _o = _bx * (" + index + ")_groups; _o < _last; ++_o) {\n";
}

std::string host_element_loop(const ReductionDefinition& k, const std::string& index,
                              const std::string& first, const std::string& end) {
    // With an identity, `ways` accumulators take turns, so that that many additions are in flight
    // rather than one chain, and each adds a part of the elements (float32 sums of long rows lose
    // less); they are combined in pairs at the end. Without one, the GPU's loop with one lane.
    if (k.identity.empty()) {
        return element_loop(k, index, first, end, "1");
    }
    constexpr int ways = 8;
    const std::string identity = "_type_reduce(" + k.identity + ")";
    std::string code = "            _type_reduce _a0 = _acc";
    for (int w = 1; w < ways; ++w) {
        code += ", _a" + std::to_string(w) + " = " + identity;
    }
    code += ";\n            " + index + " _J = " + first + ";\n";
    code += "            for (; _J + " + std::to_string(ways - 1) + " < " + end +
            "; _J += " + std::to_string(ways) + ") {\n";
    for (int w = 0; w < ways; ++w) {
        const std::string a = "_a" + std::to_string(w);
        code += cat({"                ", a, " = _kiln_reduce(", a, ", _map(_J + ",
                     std::to_string(w), "));\n"});
    }
    code += "            }\n";
    code += "            for (; _J < " + end + "; ++_J) {\n";
    code += "                _a0 = _kiln_reduce(_a0, _map(_J));\n            }\n";
    // Combined in pairs: _a0 += _a1, _a2 += _a3, ..., then _a0 += _a2, and so on.
    for (int step = 1; step < ways; step *= 2) {
        for (int w = 0; w + step < ways; w += 2 * step) {
            const std::string a = "_a" + std::to_string(w);
            code += cat({"            ", a, " = _kiln_reduce(", a, ", _a", std::to_string(w + step),
                         ");\n"});
        }
    }
    return code + "            _acc = _a0;\n";
}

std::string host_main_kernel(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string body =
        v.host_layout == HostReductionLayout::columns ? tile_by_tile(k, v) : output_by_output(k, v);
    return std::string(sweep_constants) + body;
}

}  // namespace kiln::detail
