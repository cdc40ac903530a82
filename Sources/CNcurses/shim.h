#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

// The wide-character API (cchar_t, get_wch, mvadd_wch) is declared only with this defined.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Swift 6 rejects references to mutable C globals: read them through functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline void cn_set_escdelay(int ms) { set_escdelay(ms); }

// Function-like macros are not imported by Swift: re-export them as functions.
static inline mmask_t cn_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t cn_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }
static inline mmask_t cn_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cn_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cn_button2_pressed(void) { return BUTTON2_PRESSED; }
static inline mmask_t cn_button2_released(void) { return BUTTON2_RELEASED; }
static inline mmask_t cn_button3_pressed(void) { return BUTTON3_PRESSED; }
static inline mmask_t cn_button3_released(void) { return BUTTON3_RELEASED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t cn_button_shift(void) { return BUTTON_SHIFT; }
static inline chtype cn_color_pair(int n) { return (chtype)COLOR_PAIR(n); }
static inline int cn_key_f(int n) { return KEY_F(n); }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_dim(void) { return A_DIM; }

// Puts one code point with a colour pair and attributes at (y, x).
static inline int cn_mvadd_wch_cp(int y, int x, unsigned int codepoint, short pair, attr_t attrs) {
    wchar_t wc[2] = { (wchar_t)codepoint, 0 };
    cchar_t cc;
    if (setcchar(&cc, wc, attrs, pair, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cc);
}

// Terminfo without a screen, for `drawtogether doctor`. setupterm is declared in <term.h>, which
// is not included: its capability macros (lines, columns, ...) would shadow ordinary names.
int setupterm(const char *, int, int *);
// Loads the terminfo entry for `name` as the current terminal; 1 when found, 0 when not.
static inline int cn_load_terminfo(const char *name) {
    int status = 0;
    return setupterm(name, 1, &status) == OK && status == 1;
}
// A string capability of the loaded entry: 1 present, 0 absent or not a string capability.
static inline int cn_terminfo_has_string(const char *capability) {
    char *value = tigetstr(capability);
    return value != NULL && value != (char *)-1;
}

#endif
