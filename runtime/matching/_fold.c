/* The hand's key in each component, summed in C, each line's best key of the
 * keyed table (Columns.line_keys) and a query's answers made in C: an optional accelerator of runtime/matching/lookup.py and matcher.py,
 * which do the same in Python when this is not built (a machine without a C
 * compiler). Python adds integers of more than
 * 30 bits slowly, and a hand's key over every component is over 64 bits;
 * here each component's key is a machine word.
 *
 * fold(tiles, weights, parts, count): tiles a tuple or list of kind indices;
 * weights the kinds' weights as native unsigned 64-bit words (bytes); parts
 * each kind's component (bytes, one a kind; count or over: a kind no
 * component holds, a joker). Returns the count components' keys as a tuple,
 * or None when a tile is not a kind every component can read (the hand goes
 * the long way, where it is answered or refused). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MOST_PARTS 64

static PyObject *
fold(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "fold(tiles, weights, parts, count) takes 4 arguments");
        return NULL;
    }
    PyObject *tiles = args[0], *weights = args[1], *parts = args[2];
    if (!PyBytes_Check(weights) || !PyBytes_Check(parts)) {
        PyErr_SetString(PyExc_TypeError, "fold: weights and parts must be bytes");
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(args[3]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t kinds = PyBytes_GET_SIZE(parts);
    if (count < 0 || count > MOST_PARTS || PyBytes_GET_SIZE(weights) != kinds * 8) {
        PyErr_SetString(PyExc_ValueError, "fold: parts and weights disagree");
        return NULL;
    }
    PyObject **items;
    Py_ssize_t n;
    if (PyTuple_CheckExact(tiles)) {
        items = &PyTuple_GET_ITEM(tiles, 0);
        n = PyTuple_GET_SIZE(tiles);
    } else if (PyList_CheckExact(tiles)) {
        items = PySequence_Fast_ITEMS(tiles);
        n = PyList_GET_SIZE(tiles);
    } else {
        Py_RETURN_NONE;
    }
    const unsigned char *part_of = (const unsigned char *)PyBytes_AS_STRING(parts);
    const char *weight_of = PyBytes_AS_STRING(weights);
    uint64_t sums[MOST_PARTS];
    memset(sums, 0, sizeof(uint64_t) * (size_t)count);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *tile = items[i];
        if (!PyLong_CheckExact(tile))
            Py_RETURN_NONE;
        int overflow;
        long kind = PyLong_AsLongAndOverflow(tile, &overflow);
        if (overflow || kind < 0 || kind >= kinds)
            Py_RETURN_NONE;  /* (PyLong_AsLongAndOverflow cannot fail on an int) */
        unsigned char part = part_of[kind];
        if (part >= count)
            Py_RETURN_NONE;
        uint64_t weight;
        memcpy(&weight, weight_of + 8 * kind, 8);
        uint64_t summed = sums[part] + weight;
        if (summed < weight)
            Py_RETURN_NONE;  /* past a machine word: no key of any table */
        sums[part] = summed;
    }
    PyObject *out = PyTuple_New(count);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t c = 0; c < count; c++) {
        PyObject *key = PyLong_FromUnsignedLongLong(sums[c]);
        if (key == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, c, key);
    }
    return out;
}

/* The i-th item of a list read as an index below `bound`; -1 with an
 * exception set when it is not an int or is out of range. */
static Py_ssize_t
list_index(PyObject *list, Py_ssize_t i, Py_ssize_t bound, const char *past)
{
    Py_ssize_t at = PyLong_AsSsize_t(PyList_GET_ITEM(list, i));
    if (at == -1 && PyErr_Occurred())
        return -1;
    if (at < 0 || at >= bound) {
        PyErr_SetString(PyExc_IndexError, past);
        return -1;
    }
    return at;
}

/* extend_each(cls, heads, keys, last): [cls(heads[k] + (last,)) for k in keys]
 * for a subclass of tuple without slots of its own (a Match from the start of
 * its tuple and the hand): one allocation per item, where Python makes the
 * tuple, the call's argument tuple and the item. */
static PyObject *
extend_each(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "extend_each(cls, heads, keys, last) takes 4 arguments");
        return NULL;
    }
    PyObject *cls = args[0], *heads = args[1], *keys = args[2], *last = args[3];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)
        || ((PyTypeObject *)cls)->tp_basicsize != PyTuple_Type.tp_basicsize
        || !PyList_CheckExact(heads) || !PyList_CheckExact(keys)) {
        PyErr_SetString(PyExc_TypeError,
                        "extend_each: a tuple subclass without slots, and two lists");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    Py_ssize_t n = PyList_GET_SIZE(keys), known = PyList_GET_SIZE(heads);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t at = list_index(keys, i, known, "extend_each: a key past the heads");
        if (at < 0)
            goto fail;
        PyObject *head = PyList_GET_ITEM(heads, at);
        if (!PyTuple_Check(head)) {
            PyErr_SetString(PyExc_TypeError, "extend_each: a head that is not a tuple");
            goto fail;
        }
        Py_ssize_t size = PyTuple_GET_SIZE(head);
        PyObject *item = type->tp_alloc(type, size + 1);
        if (item == NULL)
            goto fail;
        for (Py_ssize_t j = 0; j < size; j++) {
            PyObject *field = PyTuple_GET_ITEM(head, j);
            Py_INCREF(field);
            PyTuple_SET_ITEM(item, j, field);
        }
        Py_INCREF(last);
        PyTuple_SET_ITEM(item, size, last);
        PyList_SET_ITEM(out, i, item);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* Line i's columns, from *from to *to, read off `starts` (a list of each
 * line's first column, rising within `count` columns); -1 with an exception
 * set when they do not rise so. */
static int
line_range(PyObject *starts, Py_ssize_t i, Py_ssize_t count, Py_ssize_t *from, Py_ssize_t *to,
           const char *who)
{
    Py_ssize_t lines = PyList_GET_SIZE(starts);
    *from = PyLong_AsSsize_t(PyList_GET_ITEM(starts, i));
    *to = i + 1 < lines ? PyLong_AsSsize_t(PyList_GET_ITEM(starts, i + 1)) : count;
    if (PyErr_Occurred())
        return -1;
    if (*from < 0 || *from >= *to || *to > count) {
        PyErr_Format(PyExc_ValueError, "%s: starts must rise within the columns", who);
        return -1;
    }
    return 0;
}

static int
lanes_buffer(PyObject *obj, Py_buffer *b)
{
    if (PyObject_GetBuffer(obj, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (!((b->itemsize == 2 && strcmp(b->format, "h") == 0)
          || (b->itemsize == 4 && (strcmp(b->format, "i") == 0 || strcmp(b->format, "l") == 0)))) {
        PyBuffer_Release(b);
        PyErr_SetString(PyExc_TypeError, "line_keys: lanes of 16 or 32-bit integers");
        return -1;
    }
    return 0;
}

/* line_keys(lanes, rows, width, count, starts, joker_keys): Columns.line_keys
 * in one call. lanes: the keyed table's rows, each the naturals half then the
 * room half of `width` lanes; the rows of the hand summed over the first
 * `count` columns; with joker_keys (None: no jokers), what the jokers add by
 * each column's room summed; then per line (its columns from starts[i] to the
 * next start) the highest key, as a list. */
static PyObject *
line_keys(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "line_keys(lanes, rows, width, count, starts, joker_keys) takes 6 arguments");
        return NULL;
    }
    PyObject *rows = args[1], *starts = args[4], *jokers = args[5];
    Py_ssize_t width = PyLong_AsSsize_t(args[2]), count = PyLong_AsSsize_t(args[3]);
    if (PyErr_Occurred())
        return NULL;
    if (!PyList_CheckExact(rows) || !PyList_CheckExact(starts) || width <= 0 || count < 0
        || count > width) {
        PyErr_SetString(PyExc_TypeError, "line_keys: rows and starts lists, 0 <= count <= width");
        return NULL;
    }
    Py_buffer table, added;
    if (lanes_buffer(args[0], &table) < 0)
        return NULL;
    int with_jokers = jokers != Py_None;
    if (with_jokers && lanes_buffer(jokers, &added) < 0) {
        PyBuffer_Release(&table);
        return NULL;
    }
    PyObject *out = NULL;
    int64_t *sums = PyMem_Calloc(2 * (size_t)(count ? count : 1), sizeof(int64_t));
    if (sums == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *room = sums + count;
    Py_ssize_t lanes = table.len / table.itemsize, table_rows = lanes / (2 * width);
    for (Py_ssize_t r = 0; r < PyList_GET_SIZE(rows); r++) {
        Py_ssize_t row = list_index(rows, r, table_rows, "line_keys: a row past the table");
        if (row < 0)
            goto done;
        Py_ssize_t at = row * 2 * width;
        if (table.itemsize == 2) {  /* a loop per lane type, which the compiler vectorises */
            const int16_t *lane = (const int16_t *)table.buf + at;
            for (Py_ssize_t c = 0; c < count; c++)
                sums[c] += lane[c];
            for (Py_ssize_t c = 0; with_jokers && c < count; c++)  /* the room: jokers' alone */
                room[c] += lane[width + c];
        } else {
            const int32_t *lane = (const int32_t *)table.buf + at;
            for (Py_ssize_t c = 0; c < count; c++)
                sums[c] += lane[c];
            for (Py_ssize_t c = 0; with_jokers && c < count; c++)  /* the room: jokers' alone */
                room[c] += lane[width + c];
        }
    }
    if (with_jokers) {
        Py_ssize_t known = added.len / added.itemsize;
        for (Py_ssize_t c = 0; c < count; c++) {
            if (room[c] < 0 || room[c] >= known) {
                PyErr_SetString(PyExc_IndexError, "line_keys: a room past the joker keys");
                goto done;
            }
            sums[c] += added.itemsize == 2 ? ((const int16_t *)added.buf)[room[c]]
                                           : ((const int32_t *)added.buf)[room[c]];
        }
    }
    Py_ssize_t lines = PyList_GET_SIZE(starts);
    out = PyList_New(lines);
    if (out == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < lines; i++) {
        Py_ssize_t from, to;
        if (line_range(starts, i, count, &from, &to, "line_keys") < 0)
            goto fail;
        int64_t best = sums[from];
        for (Py_ssize_t c = from + 1; c < to; c++)
            if (sums[c] > best)
                best = sums[c];
        PyObject *key = PyLong_FromLongLong(best);
        if (key == NULL)
            goto fail;
        PyList_SET_ITEM(out, i, key);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    PyMem_Free(sums);
    PyBuffer_Release(&table);
    if (with_jokers)
        PyBuffer_Release(&added);
    return out;
}

/* One read-only, C-contiguous buffer of `itemsize`-byte integers (format
 * `format`, or either int32 spelling when it is "i"), at least `least` long. */
static int
int_buffer(PyObject *obj, Py_buffer *b, Py_ssize_t itemsize, const char *format,
           Py_ssize_t least, const char *what)
{
    if (PyObject_GetBuffer(obj, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    int same = b->itemsize == itemsize && (strcmp(b->format, format) == 0
                                           || (format[0] == 'i' && strcmp(b->format, "l") == 0
                                               && itemsize == 4));
    if (!same || b->len / b->itemsize < least) {
        PyBuffer_Release(b);
        PyErr_Format(PyExc_TypeError, "%s of %zd-byte integers, %zd or more", what, itemsize,
                     least);
        return -1;
    }
    return 0;
}

/* A hand's rows of a table (int8, each the naturals of its `count` columns
 * then their room changes; `rows` of them, the last all zeros) summed into
 * naturals and room (zeroed), the room with each column's `base` room added.
 * counts: the hand's concealed naturals by kind (a dict); first_row: each of
 * the `kinds` kinds' first row. Where held_kind is not NULL, each kind held,
 * its row and the row of one fewer are kept there. Returns how many kinds
 * are held, or -1 with an exception set. */
static Py_ssize_t
sum_hand(PyObject *counts, const int32_t *first_row, Py_ssize_t kinds, const int8_t *table,
         Py_ssize_t rows, Py_ssize_t count, const int16_t *base, int16_t *naturals,
         int16_t *room, Py_ssize_t *held_kind, Py_ssize_t *row_now, Py_ssize_t *row_less)
{
    Py_ssize_t pos = 0, h = 0;
    PyObject *key, *value;
    while (PyDict_Next(counts, &pos, &key, &value)) {
        Py_ssize_t k = PyLong_AsSsize_t(key), c = PyLong_AsSsize_t(value);
        if (PyErr_Occurred())
            return -1;
        if (k < 0 || k >= kinds || c < 1 || first_row[k] < 0
            || first_row[k] + c - 1 >= rows - 1) {
            PyErr_SetString(PyExc_IndexError, "a hand's count past the table");
            return -1;
        }
        Py_ssize_t now = first_row[k] + c - 1;
        if (held_kind != NULL) {
            held_kind[h] = k;
            row_now[h] = now;
            row_less[h] = c >= 2 ? now - 1 : rows - 1;  /* the zero row: none left */
        }
        const int8_t *row = table + now * 2 * count;
        for (Py_ssize_t col = 0; col < count; col++)
            naturals[col] += row[col];
        for (Py_ssize_t col = 0; col < count; col++)
            room[col] += row[count + col];
        h++;
    }
    for (Py_ssize_t col = 0; col < count; col++)
        room[col] += base[col];
    return h;
}

/* A table as a hand is weighed on it: dense, its int8 rows (2-d, two lanes
 * a column, a zero row last); row_of, each kind's first row (int32); base,
 * each column's joker room (int16). Returns its columns, the three buffers
 * held; or 0 with an exception set and none held. */
static Py_ssize_t
table_buffers(PyObject *dense_rows, PyObject *first_rows, PyObject *base_room, Py_buffer *dense,
              Py_buffer *row_of, Py_buffer *base, const char *who)
{
    if (int_buffer(dense_rows, dense, 1, "b", 0, "dense") < 0)
        return 0;
    if (dense->ndim != 2 || dense->shape[1] % 2 || dense->shape[1] == 0 || dense->shape[0] < 2) {
        PyBuffer_Release(dense);
        PyErr_Format(PyExc_TypeError, "%s: dense rows of 2 lanes a column, and a zero row", who);
        return 0;
    }
    Py_ssize_t count = dense->shape[1] / 2;
    if (int_buffer(first_rows, row_of, 4, "i", 1, "row_of") < 0) {
        PyBuffer_Release(dense);
        return 0;
    }
    if (int_buffer(base_room, base, 2, "h", count, "base") < 0) {
        PyBuffer_Release(row_of);
        PyBuffer_Release(dense);
        return 0;
    }
    return count;
}

/* discard_nearness(dense, row_of, counts, jokers, joker, tiles, base, needed,
 *                  line_of, lines, exposed, most): runtime/matching/discards.py's
 * weigh() in one call. dense: the table's rows (int8, 2-d), each the naturals
 * of its n columns then their room changes, the last row all zeros; row_of:
 * each kind's first row (int32); counts: the hand's concealed naturals by kind
 * (a dict); jokers held, and the joker's kind (-1: none); tiles: the kinds
 * weighed; base: each column's joker room when nothing is held and needed the
 * tiles its line needs beyond the `exposed` ones (int16); line_of: each
 * column's line (int32), below `lines`. Returns (best, many, near, lines at
 * near): per tile the hand less it, then the hand itself; or None when more
 * than `most` columns are within a tile of the nearest, or one of them scores
 * nothing (the caller then weighs every column). */
static PyObject *
discard_nearness(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "discard_nearness(dense, row_of, counts, jokers, "
                        "joker, tiles, base, needed, line_of, lines, exposed, most) takes 12 "
                        "arguments");
        return NULL;
    }
    PyObject *counts = args[2], *tiles = args[5], *out = NULL;
    Py_ssize_t jokers = PyLong_AsSsize_t(args[3]), joker = PyLong_AsSsize_t(args[4]);
    Py_ssize_t lines = PyLong_AsSsize_t(args[9]), exposed = PyLong_AsSsize_t(args[10]);
    Py_ssize_t most = PyLong_AsSsize_t(args[11]);
    if (PyErr_Occurred())
        return NULL;
    if (!PyDict_CheckExact(counts) || !PyList_CheckExact(tiles) || jokers < 0 || lines <= 0) {
        PyErr_SetString(PyExc_TypeError, "discard_nearness: a dict of counts, a list of tiles");
        return NULL;
    }
    Py_buffer dense, row_of, base, sizes, line_of;
    Py_ssize_t count = table_buffers(args[0], args[1], args[6], &dense, &row_of, &base,
                                     "discard_nearness");
    if (count == 0)
        return NULL;
    if (int_buffer(args[7], &sizes, 2, "h", count, "needed") < 0)
        goto release3;
    if (int_buffer(args[8], &line_of, 4, "i", count, "line_of") < 0)
        goto release4;

    const int8_t *table = (const int8_t *)dense.buf;
    const int32_t *first_row = (const int32_t *)row_of.buf;
    const int16_t *room0 = (const int16_t *)base.buf, *size_of = (const int16_t *)sizes.buf;
    const int32_t *line_at = (const int32_t *)line_of.buf;
    Py_ssize_t kinds = row_of.len / 4, rows = dense.len / (2 * count);
    Py_ssize_t words = (kinds + 63) / 64, held_kinds = PyDict_GET_SIZE(counts);
    /* one block: the hand's kinds, their rows (count held and one fewer), the
     * summed naturals and room, each line's distance and tiles lowering it */
    size_t block = sizeof(Py_ssize_t) * 3 * (size_t)(held_kinds + 1)
        + sizeof(int32_t) * 2 * (size_t)count + sizeof(int32_t) * (size_t)lines
        + sizeof(uint64_t) * (size_t)(lines * words + words);
    char *memory = PyMem_Calloc(1, block);
    if (memory == NULL) {
        PyErr_NoMemory();
        goto release5;
    }
    uint64_t *lowers_of = (uint64_t *)memory, *lowers = lowers_of + lines * words;
    Py_ssize_t *held_kind = (Py_ssize_t *)(lowers + words), *row_now = held_kind + held_kinds + 1;
    Py_ssize_t *row_less = row_now + held_kinds + 1;
    /* the sums in 16 bits (a column's naturals and room are at most a line's
     * tiles): twice the lanes of a vector add, in a region sized for 32 */
    int16_t *naturals = (int16_t *)(row_less + held_kinds + 1), *room = naturals + count;
    int32_t *far_of = (int32_t *)(naturals + 4 * count);

    Py_ssize_t h = sum_hand(counts, first_row, kinds, table, rows, count, room0, naturals, room,
                            held_kind, row_now, row_less);
    if (h < 0)
        goto done;
    /* each column's tiles away, the nearest, and how many columns are within a tile */
    int32_t near = INT32_MAX;
    for (Py_ssize_t col = 0; col < count; col++) {
        int32_t score = naturals[col] + (jokers < room[col] ? (int32_t)jokers : room[col]);
        int32_t away = size_of[col] - score;
        if (away < near)
            near = away;
    }
    Py_ssize_t candidates = 0;
    for (Py_ssize_t col = 0; col < count; col++) {
        int32_t score = naturals[col] + (jokers < room[col] ? (int32_t)jokers : room[col]);
        candidates += size_of[col] - score <= near + 1;
    }
    if (candidates > most) {
        Py_INCREF(Py_None);
        out = Py_None;
        goto done;
    }
    for (Py_ssize_t li = 0; li < lines; li++)
        far_of[li] = INT32_MAX;  /* no column of the line is this near */
    Py_ssize_t n = PyList_GET_SIZE(tiles);  /* none: the hand's own nearness alone */
    for (Py_ssize_t col = 0; col < count; col++) {
        int32_t held_naturals = naturals[col], held_room = room[col];
        int32_t held_score = held_naturals + (jokers < held_room ? (int32_t)jokers : held_room);
        int32_t far = size_of[col] - held_score;
        if (far > near + 1)
            continue;
        if (held_score + exposed <= 0) {
            Py_INCREF(Py_None);
            out = Py_None;
            goto done;
        }
        Py_ssize_t li = line_at[col];
        if (li < 0 || li >= lines) {
            PyErr_SetString(PyExc_IndexError, "discard_nearness: a column's line past the lines");
            goto done;
        }
        if (far_of[li] < far)
            continue;  /* not one of its line's nearest columns */
        if (n == 0) {
            far_of[li] = far;
            continue;
        }
        /* a tile lowers the score when the naturals it leaves fall short of it
         * with the jokers held, or with the joker room it leaves */
        int32_t shortfall = held_score - (int32_t)jokers, short_room = held_score - held_room;
        memset(lowers, 0, sizeof(uint64_t) * (size_t)words);
        if (jokers && held_naturals + jokers - 1 < held_score && joker >= 0 && joker < kinds)
            lowers[joker / 64] |= (uint64_t)1 << (joker % 64);
        for (Py_ssize_t i = 0; i < h; i++) {
            const int8_t *now = table + row_now[i] * 2 * count;
            const int8_t *less = table + row_less[i] * 2 * count;
            int32_t left = held_naturals - (now[col] - less[col]);
            if (left < shortfall || left + (less[count + col] - now[count + col]) < short_room)
                lowers[held_kind[i] / 64] |= (uint64_t)1 << (held_kind[i] % 64);
        }
        uint64_t *known = lowers_of + li * words;
        if (far < far_of[li]) {
            far_of[li] = far;
            memcpy(known, lowers, sizeof(uint64_t) * (size_t)words);
        } else {
            for (Py_ssize_t w = 0; w < words; w++)
                known[w] &= lowers[w];
        }
    }
    /* per tile: the lines at the nearest it leaves there, or else the lines a
     * tile further it leaves there */
    Py_ssize_t at_near = 0, seen = 0;
    for (Py_ssize_t li = 0; li < lines; li++) {
        at_near += far_of[li] == near;
        seen += far_of[li] != INT32_MAX;
    }
    PyObject *best = PyList_New(n), *many = PyList_New(n);
    if (best == NULL || many == NULL) {
        Py_XDECREF(best);
        Py_XDECREF(many);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t t = PyLong_AsSsize_t(PyList_GET_ITEM(tiles, i));
        if (t == -1 && PyErr_Occurred()) {
            Py_DECREF(best);
            Py_DECREF(many);
            goto done;
        }
        Py_ssize_t lost = 0, lost_next = 0;
        if (t >= 0 && t < kinds) {
            uint64_t bit = (uint64_t)1 << (t % 64);
            for (Py_ssize_t li = 0; li < lines; li++) {
                if (far_of[li] == INT32_MAX || !(lowers_of[li * words + t / 64] & bit))
                    continue;
                if (far_of[li] == near)
                    lost++;
                else
                    lost_next++;
            }
        }
        Py_ssize_t stay = at_near - lost;
        PyObject *away = PyLong_FromLong(stay ? near : near + 1);
        PyObject *lines_near = PyLong_FromSsize_t(stay ? stay : seen - lost_next);
        if (away == NULL || lines_near == NULL) {
            Py_XDECREF(away);
            Py_XDECREF(lines_near);
            Py_DECREF(best);
            Py_DECREF(many);
            goto done;
        }
        PyList_SET_ITEM(best, i, away);
        PyList_SET_ITEM(many, i, lines_near);
    }
    out = Py_BuildValue("(OOin)", best, many, (int)near, at_near);
    Py_DECREF(best);
    Py_DECREF(many);
done:
    PyMem_Free(memory);
release5:
    PyBuffer_Release(&line_of);
release4:
    PyBuffer_Release(&sizes);
release3:
    PyBuffer_Release(&base);
    PyBuffer_Release(&row_of);
    PyBuffer_Release(&dense);
    return out;
}

/* line_best(dense, row_of, counts, jokers, base, exposed, starts, lines,
 *           variations, least): each line's best column for one hand, as
 * Columns.exposed() scores it. dense, row_of, counts and base as
 * discard_nearness reads them; exposed: the tiles in the hand's exposures,
 * added to every score; starts: each line's first column (a list, rising; the
 * last line runs to the table's end); lines: each line's index on the card (a
 * list as long as starts); variations: each column's variation (a list, one
 * per column). Returns [(line, score, variation)] of every line whose best
 * score min(naturals + jokers, naturals + room) + exposed is `least` or more,
 * in order, the variation that of the first of its columns reaching it (the
 * answer as the matcher hands it on: no list is zipped in Python). */
static PyObject *
line_best(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "line_best(dense, row_of, counts, jokers, base, "
                        "exposed, starts, lines, variations, least) takes 10 arguments");
        return NULL;
    }
    PyObject *counts = args[2], *starts = args[6], *line_ids = args[7], *variations = args[8];
    PyObject *out = NULL, *found = NULL;
    Py_ssize_t jokers = PyLong_AsSsize_t(args[3]), exposed = PyLong_AsSsize_t(args[5]);
    Py_ssize_t least = PyLong_AsSsize_t(args[9]);
    if (PyErr_Occurred())
        return NULL;
    if (!PyDict_CheckExact(counts) || !PyList_CheckExact(starts) || jokers < 0
        || !PyList_CheckExact(line_ids) || !PyList_CheckExact(variations)
        || PyList_GET_SIZE(line_ids) != PyList_GET_SIZE(starts)) {
        PyErr_SetString(PyExc_TypeError, "line_best: a dict of counts, lists of starts and "
                        "of as many lines, a list of variations");
        return NULL;
    }
    Py_buffer dense, row_of, base;
    Py_ssize_t count = table_buffers(args[0], args[1], args[4], &dense, &row_of, &base,
                                     "line_best");
    if (count == 0)
        return NULL;
    if (PyList_GET_SIZE(variations) != count) {
        PyErr_SetString(PyExc_TypeError, "line_best: a variation for every column");
        goto release;
    }
    int16_t *naturals = PyMem_Calloc(2 * (size_t)count, sizeof(int16_t));
    if (naturals == NULL) {
        PyErr_NoMemory();
        goto release;
    }
    int16_t *room = naturals + count;
    if (sum_hand(counts, (const int32_t *)row_of.buf, row_of.len / 4,
                 (const int8_t *)dense.buf, dense.shape[0], count, (const int16_t *)base.buf,
                 naturals, room, NULL, NULL, NULL) < 0)
        goto done;
    Py_ssize_t lines = PyList_GET_SIZE(starts);
    found = PyList_New(0);
    if (found == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < lines; i++) {
        Py_ssize_t from, to;
        if (line_range(starts, i, count, &from, &to, "line_best") < 0)
            goto done;
        int32_t best = INT32_MIN;
        Py_ssize_t first = from;
        for (Py_ssize_t col = from; col < to; col++) {
            int32_t score = naturals[col] + (jokers < room[col] ? (int32_t)jokers : room[col]);
            if (score > best) {
                best = score;
                first = col;
            }
        }
        long total = (long)best + (long)exposed;
        if (total < least)
            continue;
        PyObject *score = PyLong_FromLong(total);
        PyObject *triple = score == NULL ? NULL : PyTuple_Pack(
            3, PyList_GET_ITEM(line_ids, i), score, PyList_GET_ITEM(variations, first));
        Py_XDECREF(score);
        if (triple == NULL || PyList_Append(found, triple) < 0) {
            Py_XDECREF(triple);
            goto done;
        }
        Py_DECREF(triple);
    }
    out = found;
    found = NULL;
done:
    Py_XDECREF(found);
    PyMem_Free(naturals);
release:
    PyBuffer_Release(&base);
    PyBuffer_Release(&row_of);
    PyBuffer_Release(&dense);
    return out;
}

/* max_plus(rows, steps, last): the best of one jokerless hand over a share of
 * a line's groups (tables.ShapeTables._best_within), for a long run that asks
 * more hands than its memo keeps. rows: each component's row for the hand, a
 * list of lists of ints (one a share). steps: native int32s, for each share
 * of the fold so far in turn its count of pairs then the pairs (i, j), i a
 * share of the fold so far and j of the next row, whose sum it is. last:
 * with one row, the shares within the share asked (int32 indexes); with
 * more, the pairs of the fold and the last row within it (int32 pairs).
 * The answer is the most of any sum; ValueError where Python's max() of no
 * sums would raise. */
static int
read_row(PyObject *row, long **out, Py_ssize_t *n)
{
    if (!PyList_CheckExact(row)) {
        PyErr_SetString(PyExc_TypeError, "max_plus: a row must be a list");
        return -1;
    }
    *n = PyList_GET_SIZE(row);
    *out = PyMem_Malloc(sizeof(long) * (size_t)(*n > 0 ? *n : 1));
    if (*out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(row, i));
        if (v == -1 && PyErr_Occurred())
            return -1;
        (*out)[i] = v;
    }
    return 0;
}

static PyObject *
max_plus(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyList_CheckExact(args[0]) || !PyBytes_Check(args[1])
            || !PyBytes_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "max_plus(rows, steps, last): a list and two bytes");
        return NULL;
    }
    PyObject *rows = args[0];
    Py_ssize_t count = PyList_GET_SIZE(rows);
    const int32_t *steps = (const int32_t *)PyBytes_AS_STRING(args[1]);
    Py_ssize_t n_steps = PyBytes_GET_SIZE(args[1]) / 4;
    const int32_t *last = (const int32_t *)PyBytes_AS_STRING(args[2]);
    Py_ssize_t n_last = PyBytes_GET_SIZE(args[2]) / 4;
    if (count == 0) {
        PyErr_SetString(PyExc_ValueError, "max_plus: no rows");
        return NULL;
    }
    long *acc = NULL, *part = NULL, *next = NULL;
    Py_ssize_t n_acc, n_part, at;
    PyObject *out = NULL;
    long best = 0;
    int found = 0;
    if (read_row(PyList_GET_ITEM(rows, 0), &acc, &n_acc) < 0)
        goto done;
    for (Py_ssize_t r = 1; r < count - 1; r++) {
        if (read_row(PyList_GET_ITEM(rows, r), &part, &n_part) < 0)
            goto done;
        next = PyMem_Malloc(sizeof(long) * (size_t)(n_steps > 0 ? n_steps : 1));
        if (next == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        Py_ssize_t n_next = 0;
        at = 0;
        while (at < n_steps) {
            Py_ssize_t pairs = steps[at++];
            if (pairs <= 0 || at + 2 * pairs > n_steps) {
                PyErr_SetString(PyExc_ValueError, "max_plus: a share of no pairs");
                goto done;
            }
            long most = 0;
            for (Py_ssize_t p = 0; p < pairs; p++, at += 2) {
                int32_t i = steps[at], j = steps[at + 1];
                if (i < 0 || i >= n_acc || j < 0 || j >= n_part) {
                    PyErr_SetString(PyExc_IndexError, "max_plus: a pair past its row");
                    goto done;
                }
                long sum = acc[i] + part[j];
                if (p == 0 || sum > most)
                    most = sum;
            }
            next[n_next++] = most;
        }
        PyMem_Free(acc);
        PyMem_Free(part);
        part = NULL;
        acc = next;
        next = NULL;
        n_acc = n_next;
    }
    if (count == 1) {
        for (Py_ssize_t p = 0; p < n_last; p++) {
            int32_t i = last[p];
            if (i < 0 || i >= n_acc) {
                PyErr_SetString(PyExc_IndexError, "max_plus: a share past its row");
                goto done;
            }
            if (!found || acc[i] > best)
                best = acc[i];
            found = 1;
        }
    } else {
        if (read_row(PyList_GET_ITEM(rows, count - 1), &part, &n_part) < 0)
            goto done;
        for (Py_ssize_t p = 0; p + 1 < n_last; p += 2) {
            int32_t i = last[p], j = last[p + 1];
            if (i < 0 || i >= n_acc || j < 0 || j >= n_part) {
                PyErr_SetString(PyExc_IndexError, "max_plus: a pair past its row");
                goto done;
            }
            long sum = acc[i] + part[j];
            if (!found || sum > best)
                best = sum;
            found = 1;
        }
    }
    if (!found)
        PyErr_SetString(PyExc_ValueError, "max_plus: no share within the one asked");
    else
        out = PyLong_FromLong(best);
done:
    PyMem_Free(acc);
    PyMem_Free(part);
    PyMem_Free(next);
    return out;
}

static PyMethodDef methods[] = {
    {"fold", (PyCFunction)(void (*)(void))fold, METH_FASTCALL,
     "fold(tiles, weights, parts, count): each component's key of the hand, or None."},
    {"line_keys", (PyCFunction)(void (*)(void))line_keys, METH_FASTCALL,
     "line_keys(lanes, rows, width, count, starts, joker_keys): each line's best key."},
    {"extend_each", (PyCFunction)(void (*)(void))extend_each, METH_FASTCALL,
     "extend_each(cls, heads, keys, last): [cls(heads[k] + (last,)) for k in keys]."},
    {"discard_nearness", (PyCFunction)(void (*)(void))discard_nearness, METH_FASTCALL,
     "discard_nearness(dense, row_of, counts, jokers, joker, tiles, base, needed, line_of, "
     "lines, exposed, most): (best, many) a tile, the hand's (near, lines), or None."},
    {"line_best", (PyCFunction)(void (*)(void))line_best, METH_FASTCALL,
     "line_best(dense, row_of, counts, jokers, base, exposed, starts, lines, variations, "
     "least): [(line, score, variation)] of each line scoring least or more."},
    {"max_plus", (PyCFunction)(void (*)(void))max_plus, METH_FASTCALL,
     "max_plus(rows, steps, last): the most of any sum of one row's share from each row."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fold",
    "The hand's key in each component, summed in C (runtime/matching/lookup.py).",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__fold(void)
{
    return PyModule_Create(&module);
}
