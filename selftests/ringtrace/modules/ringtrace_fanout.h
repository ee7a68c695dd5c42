/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The functions ringtrace_fanout.c calls on every read of its file, one
 * per function a session may trace (RINGTRACE_MAX_FUNCS): not static, so
 * that each keeps its own symbol whatever the optimiser does
 * (graph_fanout.sh traces them by name).
 */
#ifndef _RINGTRACE_FANOUT_H
#define _RINGTRACE_FANOUT_H

void ringtrace_fan_00(void);
void ringtrace_fan_01(void);
void ringtrace_fan_02(void);
void ringtrace_fan_03(void);
void ringtrace_fan_04(void);
void ringtrace_fan_05(void);
void ringtrace_fan_06(void);
void ringtrace_fan_07(void);
void ringtrace_fan_08(void);
void ringtrace_fan_09(void);
void ringtrace_fan_10(void);
void ringtrace_fan_11(void);
void ringtrace_fan_12(void);
void ringtrace_fan_13(void);
void ringtrace_fan_14(void);
void ringtrace_fan_15(void);
void ringtrace_fan_16(void);
void ringtrace_fan_17(void);
void ringtrace_fan_18(void);
void ringtrace_fan_19(void);
void ringtrace_fan_20(void);
void ringtrace_fan_21(void);
void ringtrace_fan_22(void);
void ringtrace_fan_23(void);
void ringtrace_fan_24(void);
void ringtrace_fan_25(void);
void ringtrace_fan_26(void);
void ringtrace_fan_27(void);
void ringtrace_fan_28(void);
void ringtrace_fan_29(void);
void ringtrace_fan_30(void);
void ringtrace_fan_31(void);
void ringtrace_fan_32(void);
void ringtrace_fan_33(void);
void ringtrace_fan_34(void);
void ringtrace_fan_35(void);
void ringtrace_fan_36(void);
void ringtrace_fan_37(void);
void ringtrace_fan_38(void);
void ringtrace_fan_39(void);
void ringtrace_fan_40(void);
void ringtrace_fan_41(void);
void ringtrace_fan_42(void);
void ringtrace_fan_43(void);
void ringtrace_fan_44(void);
void ringtrace_fan_45(void);
void ringtrace_fan_46(void);
void ringtrace_fan_47(void);
void ringtrace_fan_48(void);
void ringtrace_fan_49(void);
void ringtrace_fan_50(void);
void ringtrace_fan_51(void);
void ringtrace_fan_52(void);
void ringtrace_fan_53(void);
void ringtrace_fan_54(void);
void ringtrace_fan_55(void);
void ringtrace_fan_56(void);
void ringtrace_fan_57(void);
void ringtrace_fan_58(void);
void ringtrace_fan_59(void);
void ringtrace_fan_60(void);
void ringtrace_fan_61(void);
void ringtrace_fan_62(void);
void ringtrace_fan_63(void);

#endif
