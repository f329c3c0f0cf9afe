// The host dialect's reduce kernel: loops over the blocks that one call of its entry point runs on
// one CPU thread, shaped by the variant's layout so that g++ vectorises the innermost
// loop wherever the layout allows it.
#include "reduction.hpp"

#include "device_files.hpp"
#include "dialect.hpp"

#include "../../core/kernels/elementwise/elementwise_loops.hpp"
#include "../../core/kernels/reduction/reduction_source_parts.hpp"

#include <functional>

namespace kiln::detail::host_dialect {

namespace {

// How a sweep finds its rows: `start(row, tag, p)` points array input p's _rp<tag>_<name> at row
// `row` (an expression of _q), and `position(row)` is the _J of that row's lane _t.
struct Rows {
    std::function<std::string(const std::string& row, const std::string& tag, std::size_t p)> start;
    std::function<std::string(const std::string& row)> position;
};

// Every array input bound to element `at` of the items from _rp<tag>_<name>.
std::string item_bindings(const ReductionDefinition& k, const ReductionVariant& v,
                          const std::string& tag, const std::string& at) {
    std::string code;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (v.in_scalar[p]) {
            continue;
        }
        const auto& spec = k.in[p];
        const std::string qualified =
            (spec.non_const ? "" : "const ") + type_of(spec, v.in_dtypes[p]);
        code += cat({"        ", qualified, "& ", spec.name, " = reinterpret_cast<", qualified,
                     "*>(_rp", tag, "_", spec.name, ")[", at, "];\n"});
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
        code += item_bindings(k, v, std::to_string(u), "_t");
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

// The reduce kernel's opening through the loop over its blocks.
std::string opening(const ReductionDefinition& k, const ReductionVariant& v, const MapCode& map) {
    std::string code = dialect().kernel_opening(k.name, map.params, {});
    code += "    const _kiln_index _in_ind{_m * _n};\n    const _kiln_index _out_ind{_m};\n";
    return code + host_block_loop(index_type(v), true);
}

// Opens the loop over the block's outputs in tiles [_o0, _o0 + _w) of up to _kiln_tile (or
// _kiln_lanes, for few rows) neighbours along the innermost output axis, with each array input's
// offset _ob_<name> of _o0.
std::string tile_loop(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string ix = index_type(v);
    std::string code = "    const " + ix + " _inner = (" + ix + ")_oshape.v[" +
                       std::to_string(v.out_ndim - 1) + "];\n";
    code += "    for (" + ix + " _o0 = _bx * (" + ix + ")_groups; _o0 < _last;) {\n";
    code += "        const " + ix +
            " _left = _inner - _o0 % _inner < _last - _o0 ? _inner - _o0 % _inner : _last - "
            "_o0;\n";
    code +=
        "        const int _span = _end - _begin <= _kiln_few_rows ? _kiln_lanes : _kiln_tile;\n";
    code += "        const int _w = _left < (" + ix + ")_span ? int(_left) : _span;\n";
    std::vector<std::pair<std::string, std::string>> out_strides;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (!v.in_scalar[p]) {
            const std::string& name = k.in[p].name;
            code += cat({"        ", ix, " _ob_", name, " = 0;\n"});
            out_strides.emplace_back("_ob_" + name, "_os_" + name);
        }
    }
    code += "        " + unravel(ix, "_o0", "_oshape", v.out_ndim, out_strides) + "\n";
    return code + "        _type_reduce _totals[_kiln_tile];\n";
}

// One loop over the tile's outputs _o0 + _t, which lie along the innermost output axis: each
// output's place is a step of that axis past the first's, unravelled once; `unit` steps one item.
std::string tile_output_loop(const ReductionDefinition& k, const ReductionVariant& v, bool unit) {
    const std::string ix = index_type(v);
    const std::string last = std::to_string(v.out_ndim - 1);
    std::string code = "for (int _t = 0; _t < _w; ++_t) {\n";
    code += "    const " + ix + " _o = _o0 + _t;\n    (void)_o;\n";
    code += "    const _type_reduce& a = _totals[_t];\n";
    for (std::size_t o = 0; o < k.out.size(); ++o) {
        const auto& p = k.out[o];
        const std::string type = type_of(p, v.out_dtypes[o]);
        const std::string at = cat({"_p_", p.name, " + _ob_", p.name});
        code += cat({"    ", type, "& ", p.name, " = "});
        code += unit ? cat({"reinterpret_cast<", type, "*>(", at, ")[_t];\n"})
                     : cat({"*reinterpret_cast<", type, "*>(", at, " + _t * (", ix, ")_os_", p.name,
                            ".v[", last, "]);\n"});
    }
    return code + "    " + k.post_map_expr + ";\n}\n";
}

// Stores the tile's _totals (to the partials of chunk _by, or through post_map_expr) and closes
// its loop. Stores to unit-stride outputs vectorise: in a probe, scalar stores made a strip sum of
// 16 x 1e7 float32 along axis 0 1.7x slower on one thread.
std::string tile_stores(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string ix = index_type(v);
    std::string code = "        if (_partial != nullptr) {\n";
    code += "            for (int _t = 0; _t < _w; ++_t) {\n";
    code += "                reinterpret_cast<_type_reduce*>(_partial)[(_o0 + _t) * (" + ix +
            ")_kiln_grid.grid.y + _by] = _totals[_t];\n            }\n        } else {\n";
    std::vector<std::pair<std::string, std::string>> offsets;
    std::string unit = "true";
    for (std::size_t o = 0; o < k.out.size(); ++o) {
        const auto& p = k.out[o];
        code += "            " + ix + " _ob_" + p.name + " = 0;\n";
        offsets.emplace_back("_ob_" + p.name, "_os_" + p.name);
        unit += cat({" && _os_", p.name, ".v[", std::to_string(v.out_ndim - 1), "] == (", ix,
                     ")sizeof(", type_of(p, v.out_dtypes[o]), ")"});
    }
    code += "            " + unravel(ix, "_o0", "_oshape", v.out_ndim, offsets) + "\n";
    code += "            if (" + unit + ") {\n" + indented(tile_output_loop(k, v, true), 16);
    code +=
        "            } else {\n" + indented(tile_output_loop(k, v, false), 16) + "            }\n";
    return code + "        }\n        _o0 += _w;\n    }\n";
}

// `rows`, chunks of at least _kiln_lanes elements: each output's chunk swept as rows of that many
// consecutive elements, the lanes combined in pairs at the end.
std::string long_rows(const ReductionDefinition& k, const ReductionVariant& v, const MapCode& map) {
    const std::string ix = index_type(v);
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
    std::string code = host_output_loop(ix) + map.output_offsets;
    code += "        _type_reduce _acc;\n";
    code += "        _type_reduce _totals[_kiln_lanes];\n";
    code += "        _type_reduce _run_totals[_kiln_lanes];\n";
    code += "        const " + ix + " _rows = (_end - _begin) / (" + ix + ")_kiln_lanes;\n";
    code += indented(sweep(k, v, rows, "0", "_rows", "_kiln_lanes"), 8);
    // The elements after the last whole row, into the first lanes.
    code += "        {\n            const " + ix + " _q = _rows;\n";
    code += indented(lanes_loop(k, v, rows, "int(_end - _begin - _q * (" + ix + ")_kiln_lanes)",
                                "_totals", 1, false),
                     12);
    code += "        }\n";
    code += "        for (int _s = 1; _s < _kiln_lanes; _s *= 2) {\n";
    code += "            for (int _t = 0; _t + _s < _kiln_lanes; _t += 2 * _s) {\n";
    code += "                _totals[_t] = _kiln_reduce(_totals[_t], _totals[_t + _s]);\n";
    code += "            }\n        }\n";
    code += "        _acc = _totals[0];\n";
    return code + store_result(k, v) + "    }\n";
}

// `rows`, chunks shorter than _kiln_lanes elements: each output's chunk in turn, through a `_map`
// of plain pointers.
std::string short_rows(const ReductionDefinition& k, const ReductionVariant& v,
                       const MapCode& map) {
    const std::string ix = index_type(v);
    std::string code = host_output_loop(ix) + "        " + start_accumulator(k) + "\n";
    code += map.output_offsets;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (!v.in_scalar[p]) {
            const std::string& name = k.in[p].name;
            code += cat(
                {"            char* const _rp0_", name, " = _p_", name, " + _ob_", name, ";\n"});
        }
    }
    code += "            const auto _map = [&](const " + ix + " _J) -> _type_reduce {\n";
    code += indented(item_bindings(k, v, "0", "_J"), 8);
    code += "                return _type_reduce(" + k.map_expr + ");\n            };\n";
    code += host_element_loop(k, ix, "_begin", "_end");
    return code + store_result(k, v) + "    }\n";
}

// `strided`: each output's chunk reduced by one thread in turn, elements unravelled one by one.
// `rows`: long_rows or short_rows, by the chunk's length.
std::string output_by_output(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string ix = index_type(v);
    const MapCode map = map_code(k, v);
    std::string code = opening(k, v, map);
    if (v.layout != ReductionLayout::rows) {
        code += host_output_loop(ix) + "        " + start_accumulator(k) + "\n";
        code += map.output_offsets + map.map + host_element_loop(k, ix, "_begin", "_end");
        return code + store_result(k, v) + "    }\n    }\n}\n" + dialect().kernel_closing(k.name);
    }
    code += "    if (_end - _begin >= (" + ix + ")_kiln_lanes) {\n";
    code += indented(long_rows(k, v, map), 4) + "    } else {\n";
    code += indented(short_rows(k, v, map), 4) + "    }\n";
    return code + "    }\n}\n" + dialect().kernel_closing(k.name);
}

// `columns`: the block's outputs in tiles; for each tile, the chunk's rows _q swept in order,
// each row's elements read contiguously into the tile's lanes.
std::string tile_by_tile(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string ix = index_type(v);
    std::string code = opening(k, v, map_code(k, v)) + tile_loop(k, v);
    Rows rows;
    rows.start = [&](const std::string& row, const std::string& tag, std::size_t p) {
        const std::string& name = k.in[p].name;
        const std::string offset = cat({"_e", tag, "_", name});
        return cat({ix, " ", offset, " = _ob_", name, ";\n",
                    unravel(ix, row, "_rshape", v.reduce_ndim, {{offset, "_rs_" + name}}),
                    "\nchar* const _rp", tag, "_", name, " = _p_", name, " + ", offset, ";\n"});
    };
    rows.position = [](const std::string& row) { return row; };
    code += "        _type_reduce _run_totals[_kiln_tile];\n";
    // A whole strip sweeps with a constant width, so that its totals stay in registers.
    code += "        if (_end > _begin && _w == _kiln_lanes) {\n";
    code += indented(sweep(k, v, rows, "_begin", "_end", "_kiln_lanes"), 12);
    code += "        } else if (_end > _begin) {\n";
    code += indented(sweep(k, v, rows, "_begin", "_end", "_w"), 12);
    code += "        }";
    if (!k.identity.empty()) {
        // An empty reduction (no identity: an error before any launch).
        code += " else {\n            for (int _t = 0; _t < _w; ++_t) {\n";
        code += "                _totals[_t] = _type_reduce(" + k.identity +
                ");\n            }\n        }";
    }
    code += "\n" + tile_stores(k, v);
    return code + "    }\n}\n" + dialect().kernel_closing(k.name);
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

// Lanes of a sweep, each accumulating its own elements.
//
// A `rows` kernel keeps 32 lanes of elements up to 8 bytes, which g++ holds in vector registers
// (with 8 or 16, it unrolls the loop over them before its loop vectoriser sees it, and its
// straight-line one is off). Elements of 16 bytes get 16 lanes: 32 fill all 16 AVX2 registers,
// and g++ then reads each pass's rows in halves, out of address order (a complex128 sum of 1e7
// on one thread of an AMD EPYC: 13.2 ms with 32 lanes, 6.1 - 6.6 ms with 16). Larger elements get
// 128 bytes of lanes.
//
// A `columns` kernel keeps up to 8 KiB for consecutive outputs (2, 4, 8 and 16 KiB read l2norm
// along axis 0 of 8192² on one thread at 31, 59, 64 and 63% of copy), but only _kiln_lanes where
// its chunk has at most _kiln_few_rows rows: a strip of outputs that stays in registers while the
// few rows stream past (16 x 1e7 float32 along axis 0, on two threads: 55 - 65% of copy in 8 KiB
// tiles, 73 - 93% in strips; a probe found the two equal at 32 - 64 rows).
//
// Both reduce runs of _kiln_run rows into _run_totals before folding them into _totals, so that a
// float sum adds partial sums of similar size rather than adding every element to one growing
// total. The constants are device/kiln/reduction_sweep.h's.
std::string host_main_kernel(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string body =
        v.layout == ReductionLayout::columns ? tile_by_tile(k, v) : output_by_output(k, v);
    return std::string(device_file::reduction_sweep_h().text) + body;
}

std::string finish_kernel(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string index = index_type(v);
    const FinishCode finish = finish_code(k, v);
    std::string code = dialect().kernel_opening(finish_name(k), finish.params, {});
    code += "    const _kiln_index _in_ind{_m * _n};\n    const _kiln_index _out_ind{_m};\n";
    code += finish.partials + host_block_loop(index, false) + host_output_loop(index);
    code += "        " + start_accumulator(k) + "\n" + finish.map;
    code += host_element_loop(k, index, "0", "(" + index + ")_split");
    code += "        " + post_map(k, v) + "    }\n    }\n}\n";
    return code + dialect().kernel_closing(finish_name(k));
}

namespace {

std::string support(const ReductionDefinition& /*k*/) {
    return {};
}

}  // namespace

const ReductionDialect reduction_part{&support, &host_main_kernel, &finish_kernel, &input_layout,
                                      &plan_reduction_launch};

}  // namespace kiln::detail::host_dialect
