/* A Card Arena bot over the line protocol (docs/protocol.md), in one file: libc only, with a
 * tiny JSON reader of its own.
 *
 * Every game: a random legal move. Concentration: greedy with a perfect memory, move for move
 * the bundled `greedy` (its random draws are Python's: MT19937 seeded from `seed_words`).
 *
 *   cc -O2 -o bot bot.c && arena play concentration -b cmd:./bot -b greedy
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a tiny JSON reader: nodes in one growing array, linked as first child / next sibling */
enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
typedef struct { int type, first, next, len; double num; char *str, *key; } Node;
static Node *nodes;
static int used, room;
static char *at;

static int node(int type) {
    if (used == room) {
        room = room ? room * 2 : 1024;
        nodes = realloc(nodes, sizeof(Node) * room);
        if (!nodes) exit(2);
    }
    memset(&nodes[used], 0, sizeof(Node));
    nodes[used].type = type;
    nodes[used].first = nodes[used].next = -1;
    return used++;
}

static void skip(void) { while (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r') at++; }

static char *string(void) { /* at the opening quote: unescaped in place */
    char *out = ++at, *start = at;
    while (*at && *at != '"') {
        if (*at == '\\') {
            at++;
            switch (*at) {
            case 'n': *out++ = '\n'; break;
            case 't': *out++ = '\t'; break;
            case 'r': *out++ = '\r'; break;
            case 'b': *out++ = '\b'; break;
            case 'f': *out++ = '\f'; break;
            case 'u': {
                unsigned c = (unsigned)strtoul((char[5]){at[1], at[2], at[3], at[4], 0}, 0, 16);
                at += 4;
                if (c < 0x80) *out++ = (char)c;
                else if (c < 0x800) { *out++ = (char)(0xC0 | c >> 6); *out++ = (char)(0x80 | (c & 63)); }
                else { *out++ = (char)(0xE0 | c >> 12); *out++ = (char)(0x80 | ((c >> 6) & 63));
                       *out++ = (char)(0x80 | (c & 63)); }
                break;
            }
            default: *out++ = *at;
            }
            at++;
        } else *out++ = *at++;
    }
    if (*at) at++;
    *out = 0;
    return start;
}

static int value(void) {
    skip();
    int n, last = -1;
    char c = *at;
    if (c == '{' || c == '[') {
        n = node(c == '{' ? J_OBJ : J_ARR);
        at++;
        skip();
        while (*at && *at != '}' && *at != ']') {
            char *key = 0;
            if (c == '{') { key = string(); skip(); if (*at == ':') at++; }
            int kid = value();
            nodes[kid].key = key;
            if (last < 0) nodes[n].first = kid; else nodes[last].next = kid;
            last = kid;
            nodes[n].len++;
            skip();
            if (*at == ',') { at++; skip(); }
        }
        if (*at) at++;
    } else if (c == '"') {
        char *s = string();
        n = node(J_STR);
        nodes[n].str = s;
    } else if (c == 't' || c == 'f' || c == 'n') {
        n = node(c == 'n' ? J_NULL : J_BOOL);
        nodes[n].num = c == 't';
        at += c == 'f' ? 5 : 4;
    } else {
        n = node(J_NUM);
        nodes[n].num = strtod(at, &at);
    }
    return n;
}

static int parse(char *text) { used = 0; at = text; return value(); }
static int get(int obj, const char *key) {
    if (obj < 0) return -1;
    for (int k = nodes[obj].first; k >= 0; k = nodes[k].next)
        if (nodes[k].key && !strcmp(nodes[k].key, key)) return k;
    return -1;
}
static int item(int arr, int i) {
    int k = arr < 0 ? -1 : nodes[arr].first;
    while (k >= 0 && i--) k = nodes[k].next;
    return k;
}
static int len(int n) { return n < 0 ? 0 : nodes[n].len; }
static long num(int n) { return n < 0 ? 0 : (long)nodes[n].num; }
static char nothing[1];
static const char *str(int n) { return n >= 0 && nodes[n].type == J_STR ? nodes[n].str : nothing; }

/* ---- Python's random: MT19937, seeded by init_by_array, and randrange(n) ---------------- */
static unsigned mt[624];
static int mti = 625;

static void seed_words(int words) {
    int n = len(words), i = 1, j = 0;
    mt[0] = 19650218U;
    for (int k = 1; k < 624; k++) mt[k] = 1812433253U * (mt[k - 1] ^ (mt[k - 1] >> 30)) + k;
    for (int k = n > 624 ? n : 624; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + (unsigned)num(item(words, j)) + j;
        i++; j++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
        if (j >= n) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - i;
        if (++i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000U;
    mti = 624;
}

static unsigned next32(void) {
    if (mti >= 624) {
        for (int k = 0; k < 624; k++) {
            unsigned y = (mt[k] & 0x80000000U) | (mt[(k + 1) % 624] & 0x7fffffffU);
            mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfU : 0);
        }
        mti = 0;
    }
    unsigned y = mt[mti++];
    y ^= y >> 11; y ^= (y << 7) & 0x9d2c5680U; y ^= (y << 15) & 0xefc60000U; y ^= y >> 18;
    return y;
}

static int randbelow(int n) { /* Python's randrange(n): the top bit_length(n) bits, retried */
    int k = 0;
    while ((n >> k) && k < 32) k++;
    unsigned r;
    do r = next32() >> (32 - k); while (r >= (unsigned)n);
    return (int)r;
}

/* ---- Concentration: greedy with memory ---------------------------------------------------- */
#define MAXPOS 4096
static int known[MAXPOS], keyof[MAXPOS];
static long order[MAXPOS], counter;
static int concentration, set_size, duel;
static char rule[32];

static int rank_of(const char *card) {
    if (!strncmp(card, "JK", 2)) return 0;
    switch (card[0]) { case 'A': return 1; case 'J': return 11; case 'Q': return 12; case 'K': return 13; }
    return atoi(card);
}
static int red(const char *card) { char s = card[strlen(card) - 1]; return s == 'D' || s == 'H'; }
static int match_key(const char *card) {
    if (!strncmp(card, "JK", 2)) return -1;
    int rank = rank_of(card);
    if (!strcmp(rule, "rank")) return rank;
    if (!strcmp(rule, "identical")) return rank * 8 + (int)(strchr("CDHS", card[strlen(card) - 1]) - "CDHS");
    return rank * 2 + red(card);
}
static int zebra(void) { return !strcmp(rule, "opposite-colour"); }
static int mate_key(int key) { return zebra() && key >= 0 ? key ^ 1 : key; }
static int cards_match(const char *a, const char *b) {
    int ja = !strncmp(a, "JK", 2), jb = !strncmp(b, "JK", 2);
    if (ja || jb) return ja && jb;
    if (rank_of(a) != rank_of(b)) return 0;
    if (!strcmp(rule, "rank")) return 1;
    if (!strcmp(rule, "rank-colour")) return red(a) == red(b);
    if (zebra()) return red(a) != red(b);
    return a[strlen(a) - 1] == b[strlen(b) - 1];
}

static void forget(int p) { if (p >= 0 && p < MAXPOS) known[p] = 0; }
static void remember(int p, int key) { /* a dict's order: a new position goes last */
    if (p < 0 || p >= MAXPOS) return;
    if (!known[p]) order[p] = ++counter;
    known[p] = 1;
    keyof[p] = key;
}

static int in_order[MAXPOS], count_known;
static int by_order(const void *a, const void *b) {
    long d = order[*(const int *)a] - order[*(const int *)b];
    return d < 0 ? -1 : d > 0;
}
static void list_known(void) {
    count_known = 0;
    for (int p = 0; p < MAXPOS; p++) if (known[p]) in_order[count_known++] = p;
    qsort(in_order, count_known, sizeof(int), by_order);
}

static void update(int events) {
    for (int e = item(events, 0); e >= 0; e = nodes[e].next) {
        const char *kind = str(get(e, "layout"));
        if (!*kind) kind = str(get(e, "kind"));
        if (!strcmp(kind, "reveal")) remember(num(get(e, "position")), match_key(str(get(e, "card"))));
        else if (!strcmp(kind, "remove")) {
            int ps = get(e, "positions");
            for (int p = item(ps, 0); p >= 0; p = nodes[p].next) forget(num(p));
        } else if (!strcmp(kind, "move")) {
            int swaps = get(e, "swaps");
            for (int s = item(swaps, 0); s >= 0; s = nodes[s].next) {
                int a = num(item(s, 0)), b = num(item(s, 1));
                int ka = known[a], kb = known[b], va = keyof[a], vb = keyof[b];
                forget(a); forget(b);
                if (ka) remember(b, va);
                if (kb) remember(a, vb);
            }
        }
    }
}

static int contains(int arr, long v) {
    for (int k = item(arr, 0); k >= 0; k = nodes[k].next) if (num(k) == v) return 1;
    return 0;
}
static int index_in(int legal, long p) {
    int i = 0;
    for (int k = item(legal, 0); k >= 0; k = nodes[k].next, i++) if (num(k) == p) return i;
    return -1;
}

static int known_set(int field) { /* the first position of a remembered set, or -1 */
    static int firsts[256], buckets[256][8], sizes[256];
    for (int k = 0; k < 256; k++) { firsts[k] = -1; sizes[k] = 0; }
    for (int i = 0; i < count_known; i++) {
        int p = in_order[i], key = keyof[p] + 1;
        if (duel && !contains(field, p)) continue;
        if (set_size == 2) {
            if (zebra()) {
                int q = firsts[mate_key(keyof[p]) + 1];
                if (q >= 0) return q;
                firsts[key] = p;
            } else if (firsts[key] < 0) firsts[key] = p;
            else return firsts[key];
        } else {
            if (sizes[key] < 8) buckets[key][sizes[key]++] = p;
            if (sizes[key] == set_size) return buckets[key][0];
        }
    }
    return -1;
}

static int greedy(int msg) {
    int legal = get(msg, "legal"), view = get(msg, "view");
    int field = get(view, "field"), up = get(view, "face_up"), cells = get(view, "cells");
    update(get(msg, "events"));
    list_known();
    if (len(up)) {
        int ok = 1;
        for (int a = 0; a < len(up); a++)
            for (int b = a + 1; b < len(up); b++)
                ok = ok && cards_match(str(item(cells, num(item(up, a)))), str(item(cells, num(item(up, b)))));
        if (len(up) == 1 || ok) {
            int wanted = mate_key(match_key(str(item(cells, num(item(up, 0))))));
            for (int i = 0; i < count_known; i++) {
                int p = in_order[i];
                if (keyof[p] == wanted && contains(field, p) && !contains(up, p) && index_in(legal, p) >= 0)
                    return index_in(legal, p);
            }
        }
    } else {
        int p = known_set(field);
        if (p >= 0) return index_in(legal, p);
    }
    int unseen = 0;
    for (int k = item(legal, 0); k >= 0; k = nodes[k].next)
        if (!(num(k) >= 0 && num(k) < MAXPOS && known[num(k)])) unseen++;
    if (!unseen) return randbelow(len(legal));
    int pick = randbelow(unseen), i = 0;
    for (int k = item(legal, 0); k >= 0; k = nodes[k].next, i++)
        if (!(num(k) >= 0 && num(k) < MAXPOS && known[num(k)]) && pick-- == 0) return i;
    return 0;
}

int main(void) {
    char *line = 0;
    size_t size = 0;
    while (getline(&line, &size, stdin) > 0) {
        int msg = parse(line);
        const char *type = str(get(msg, "type"));
        if (!strcmp(type, "act")) {
            printf("{\"index\":%d}\n", concentration ? greedy(msg) : randbelow(len(get(msg, "legal"))));
        } else {
            if (!strcmp(type, "start")) {
                int params = get(msg, "parameters");
                concentration = !strcmp(str(get(msg, "game")), "concentration");
                set_size = num(get(params, "set_size"));
                duel = num(get(params, "duel")) != 0;
                snprintf(rule, sizeof rule, "%s", str(get(params, "match")));
                memset(known, 0, sizeof known);
                counter = 0;
                seed_words(get(msg, "seed_words"));
            }
            puts("{\"ok\":true}");
        }
        fflush(stdout);
    }
    return 0;
}
