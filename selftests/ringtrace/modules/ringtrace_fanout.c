// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for graph_fanout.sh: a file whose every read() calls
 * RINGTRACE_MAX_FUNCS marked functions once each, in order, so that a
 * session tracing as many functions as one may has an exact answer:
 *
 *   ringtrace_fan_0000() ... ringtrace_fan_1023()
 *
 * /sys/kernel/debug/ringtrace_fanout/fan: each read() fills the buffer
 * with zeros (dd makes exactly count reads) after the 1024 calls; "calls"
 * counts the reads that made them. Each function stores its own number,
 * so no two have the same code for the compiler to fold into one, and
 * none is inlined: each keeps its symbol and ftrace entry.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/ringtrace.h>
#include <linux/uaccess.h>

#include "ringtrace_fanout.h"

static struct dentry *fan_dir;
static atomic64_t fan_calls = ATOMIC64_INIT(0);
static unsigned int fan_last;

#define FAN(n)						\
	noinline void ringtrace_fan_##n(void)		\
	{						\
		WRITE_ONCE(fan_last, 1##n - 10000);	\
	}
FAN(0000)
FAN(0001)
FAN(0002)
FAN(0003)
FAN(0004)
FAN(0005)
FAN(0006)
FAN(0007)
FAN(0008)
FAN(0009)
FAN(0010)
FAN(0011)
FAN(0012)
FAN(0013)
FAN(0014)
FAN(0015)
FAN(0016)
FAN(0017)
FAN(0018)
FAN(0019)
FAN(0020)
FAN(0021)
FAN(0022)
FAN(0023)
FAN(0024)
FAN(0025)
FAN(0026)
FAN(0027)
FAN(0028)
FAN(0029)
FAN(0030)
FAN(0031)
FAN(0032)
FAN(0033)
FAN(0034)
FAN(0035)
FAN(0036)
FAN(0037)
FAN(0038)
FAN(0039)
FAN(0040)
FAN(0041)
FAN(0042)
FAN(0043)
FAN(0044)
FAN(0045)
FAN(0046)
FAN(0047)
FAN(0048)
FAN(0049)
FAN(0050)
FAN(0051)
FAN(0052)
FAN(0053)
FAN(0054)
FAN(0055)
FAN(0056)
FAN(0057)
FAN(0058)
FAN(0059)
FAN(0060)
FAN(0061)
FAN(0062)
FAN(0063)
FAN(0064)
FAN(0065)
FAN(0066)
FAN(0067)
FAN(0068)
FAN(0069)
FAN(0070)
FAN(0071)
FAN(0072)
FAN(0073)
FAN(0074)
FAN(0075)
FAN(0076)
FAN(0077)
FAN(0078)
FAN(0079)
FAN(0080)
FAN(0081)
FAN(0082)
FAN(0083)
FAN(0084)
FAN(0085)
FAN(0086)
FAN(0087)
FAN(0088)
FAN(0089)
FAN(0090)
FAN(0091)
FAN(0092)
FAN(0093)
FAN(0094)
FAN(0095)
FAN(0096)
FAN(0097)
FAN(0098)
FAN(0099)
FAN(0100)
FAN(0101)
FAN(0102)
FAN(0103)
FAN(0104)
FAN(0105)
FAN(0106)
FAN(0107)
FAN(0108)
FAN(0109)
FAN(0110)
FAN(0111)
FAN(0112)
FAN(0113)
FAN(0114)
FAN(0115)
FAN(0116)
FAN(0117)
FAN(0118)
FAN(0119)
FAN(0120)
FAN(0121)
FAN(0122)
FAN(0123)
FAN(0124)
FAN(0125)
FAN(0126)
FAN(0127)
FAN(0128)
FAN(0129)
FAN(0130)
FAN(0131)
FAN(0132)
FAN(0133)
FAN(0134)
FAN(0135)
FAN(0136)
FAN(0137)
FAN(0138)
FAN(0139)
FAN(0140)
FAN(0141)
FAN(0142)
FAN(0143)
FAN(0144)
FAN(0145)
FAN(0146)
FAN(0147)
FAN(0148)
FAN(0149)
FAN(0150)
FAN(0151)
FAN(0152)
FAN(0153)
FAN(0154)
FAN(0155)
FAN(0156)
FAN(0157)
FAN(0158)
FAN(0159)
FAN(0160)
FAN(0161)
FAN(0162)
FAN(0163)
FAN(0164)
FAN(0165)
FAN(0166)
FAN(0167)
FAN(0168)
FAN(0169)
FAN(0170)
FAN(0171)
FAN(0172)
FAN(0173)
FAN(0174)
FAN(0175)
FAN(0176)
FAN(0177)
FAN(0178)
FAN(0179)
FAN(0180)
FAN(0181)
FAN(0182)
FAN(0183)
FAN(0184)
FAN(0185)
FAN(0186)
FAN(0187)
FAN(0188)
FAN(0189)
FAN(0190)
FAN(0191)
FAN(0192)
FAN(0193)
FAN(0194)
FAN(0195)
FAN(0196)
FAN(0197)
FAN(0198)
FAN(0199)
FAN(0200)
FAN(0201)
FAN(0202)
FAN(0203)
FAN(0204)
FAN(0205)
FAN(0206)
FAN(0207)
FAN(0208)
FAN(0209)
FAN(0210)
FAN(0211)
FAN(0212)
FAN(0213)
FAN(0214)
FAN(0215)
FAN(0216)
FAN(0217)
FAN(0218)
FAN(0219)
FAN(0220)
FAN(0221)
FAN(0222)
FAN(0223)
FAN(0224)
FAN(0225)
FAN(0226)
FAN(0227)
FAN(0228)
FAN(0229)
FAN(0230)
FAN(0231)
FAN(0232)
FAN(0233)
FAN(0234)
FAN(0235)
FAN(0236)
FAN(0237)
FAN(0238)
FAN(0239)
FAN(0240)
FAN(0241)
FAN(0242)
FAN(0243)
FAN(0244)
FAN(0245)
FAN(0246)
FAN(0247)
FAN(0248)
FAN(0249)
FAN(0250)
FAN(0251)
FAN(0252)
FAN(0253)
FAN(0254)
FAN(0255)
FAN(0256)
FAN(0257)
FAN(0258)
FAN(0259)
FAN(0260)
FAN(0261)
FAN(0262)
FAN(0263)
FAN(0264)
FAN(0265)
FAN(0266)
FAN(0267)
FAN(0268)
FAN(0269)
FAN(0270)
FAN(0271)
FAN(0272)
FAN(0273)
FAN(0274)
FAN(0275)
FAN(0276)
FAN(0277)
FAN(0278)
FAN(0279)
FAN(0280)
FAN(0281)
FAN(0282)
FAN(0283)
FAN(0284)
FAN(0285)
FAN(0286)
FAN(0287)
FAN(0288)
FAN(0289)
FAN(0290)
FAN(0291)
FAN(0292)
FAN(0293)
FAN(0294)
FAN(0295)
FAN(0296)
FAN(0297)
FAN(0298)
FAN(0299)
FAN(0300)
FAN(0301)
FAN(0302)
FAN(0303)
FAN(0304)
FAN(0305)
FAN(0306)
FAN(0307)
FAN(0308)
FAN(0309)
FAN(0310)
FAN(0311)
FAN(0312)
FAN(0313)
FAN(0314)
FAN(0315)
FAN(0316)
FAN(0317)
FAN(0318)
FAN(0319)
FAN(0320)
FAN(0321)
FAN(0322)
FAN(0323)
FAN(0324)
FAN(0325)
FAN(0326)
FAN(0327)
FAN(0328)
FAN(0329)
FAN(0330)
FAN(0331)
FAN(0332)
FAN(0333)
FAN(0334)
FAN(0335)
FAN(0336)
FAN(0337)
FAN(0338)
FAN(0339)
FAN(0340)
FAN(0341)
FAN(0342)
FAN(0343)
FAN(0344)
FAN(0345)
FAN(0346)
FAN(0347)
FAN(0348)
FAN(0349)
FAN(0350)
FAN(0351)
FAN(0352)
FAN(0353)
FAN(0354)
FAN(0355)
FAN(0356)
FAN(0357)
FAN(0358)
FAN(0359)
FAN(0360)
FAN(0361)
FAN(0362)
FAN(0363)
FAN(0364)
FAN(0365)
FAN(0366)
FAN(0367)
FAN(0368)
FAN(0369)
FAN(0370)
FAN(0371)
FAN(0372)
FAN(0373)
FAN(0374)
FAN(0375)
FAN(0376)
FAN(0377)
FAN(0378)
FAN(0379)
FAN(0380)
FAN(0381)
FAN(0382)
FAN(0383)
FAN(0384)
FAN(0385)
FAN(0386)
FAN(0387)
FAN(0388)
FAN(0389)
FAN(0390)
FAN(0391)
FAN(0392)
FAN(0393)
FAN(0394)
FAN(0395)
FAN(0396)
FAN(0397)
FAN(0398)
FAN(0399)
FAN(0400)
FAN(0401)
FAN(0402)
FAN(0403)
FAN(0404)
FAN(0405)
FAN(0406)
FAN(0407)
FAN(0408)
FAN(0409)
FAN(0410)
FAN(0411)
FAN(0412)
FAN(0413)
FAN(0414)
FAN(0415)
FAN(0416)
FAN(0417)
FAN(0418)
FAN(0419)
FAN(0420)
FAN(0421)
FAN(0422)
FAN(0423)
FAN(0424)
FAN(0425)
FAN(0426)
FAN(0427)
FAN(0428)
FAN(0429)
FAN(0430)
FAN(0431)
FAN(0432)
FAN(0433)
FAN(0434)
FAN(0435)
FAN(0436)
FAN(0437)
FAN(0438)
FAN(0439)
FAN(0440)
FAN(0441)
FAN(0442)
FAN(0443)
FAN(0444)
FAN(0445)
FAN(0446)
FAN(0447)
FAN(0448)
FAN(0449)
FAN(0450)
FAN(0451)
FAN(0452)
FAN(0453)
FAN(0454)
FAN(0455)
FAN(0456)
FAN(0457)
FAN(0458)
FAN(0459)
FAN(0460)
FAN(0461)
FAN(0462)
FAN(0463)
FAN(0464)
FAN(0465)
FAN(0466)
FAN(0467)
FAN(0468)
FAN(0469)
FAN(0470)
FAN(0471)
FAN(0472)
FAN(0473)
FAN(0474)
FAN(0475)
FAN(0476)
FAN(0477)
FAN(0478)
FAN(0479)
FAN(0480)
FAN(0481)
FAN(0482)
FAN(0483)
FAN(0484)
FAN(0485)
FAN(0486)
FAN(0487)
FAN(0488)
FAN(0489)
FAN(0490)
FAN(0491)
FAN(0492)
FAN(0493)
FAN(0494)
FAN(0495)
FAN(0496)
FAN(0497)
FAN(0498)
FAN(0499)
FAN(0500)
FAN(0501)
FAN(0502)
FAN(0503)
FAN(0504)
FAN(0505)
FAN(0506)
FAN(0507)
FAN(0508)
FAN(0509)
FAN(0510)
FAN(0511)
FAN(0512)
FAN(0513)
FAN(0514)
FAN(0515)
FAN(0516)
FAN(0517)
FAN(0518)
FAN(0519)
FAN(0520)
FAN(0521)
FAN(0522)
FAN(0523)
FAN(0524)
FAN(0525)
FAN(0526)
FAN(0527)
FAN(0528)
FAN(0529)
FAN(0530)
FAN(0531)
FAN(0532)
FAN(0533)
FAN(0534)
FAN(0535)
FAN(0536)
FAN(0537)
FAN(0538)
FAN(0539)
FAN(0540)
FAN(0541)
FAN(0542)
FAN(0543)
FAN(0544)
FAN(0545)
FAN(0546)
FAN(0547)
FAN(0548)
FAN(0549)
FAN(0550)
FAN(0551)
FAN(0552)
FAN(0553)
FAN(0554)
FAN(0555)
FAN(0556)
FAN(0557)
FAN(0558)
FAN(0559)
FAN(0560)
FAN(0561)
FAN(0562)
FAN(0563)
FAN(0564)
FAN(0565)
FAN(0566)
FAN(0567)
FAN(0568)
FAN(0569)
FAN(0570)
FAN(0571)
FAN(0572)
FAN(0573)
FAN(0574)
FAN(0575)
FAN(0576)
FAN(0577)
FAN(0578)
FAN(0579)
FAN(0580)
FAN(0581)
FAN(0582)
FAN(0583)
FAN(0584)
FAN(0585)
FAN(0586)
FAN(0587)
FAN(0588)
FAN(0589)
FAN(0590)
FAN(0591)
FAN(0592)
FAN(0593)
FAN(0594)
FAN(0595)
FAN(0596)
FAN(0597)
FAN(0598)
FAN(0599)
FAN(0600)
FAN(0601)
FAN(0602)
FAN(0603)
FAN(0604)
FAN(0605)
FAN(0606)
FAN(0607)
FAN(0608)
FAN(0609)
FAN(0610)
FAN(0611)
FAN(0612)
FAN(0613)
FAN(0614)
FAN(0615)
FAN(0616)
FAN(0617)
FAN(0618)
FAN(0619)
FAN(0620)
FAN(0621)
FAN(0622)
FAN(0623)
FAN(0624)
FAN(0625)
FAN(0626)
FAN(0627)
FAN(0628)
FAN(0629)
FAN(0630)
FAN(0631)
FAN(0632)
FAN(0633)
FAN(0634)
FAN(0635)
FAN(0636)
FAN(0637)
FAN(0638)
FAN(0639)
FAN(0640)
FAN(0641)
FAN(0642)
FAN(0643)
FAN(0644)
FAN(0645)
FAN(0646)
FAN(0647)
FAN(0648)
FAN(0649)
FAN(0650)
FAN(0651)
FAN(0652)
FAN(0653)
FAN(0654)
FAN(0655)
FAN(0656)
FAN(0657)
FAN(0658)
FAN(0659)
FAN(0660)
FAN(0661)
FAN(0662)
FAN(0663)
FAN(0664)
FAN(0665)
FAN(0666)
FAN(0667)
FAN(0668)
FAN(0669)
FAN(0670)
FAN(0671)
FAN(0672)
FAN(0673)
FAN(0674)
FAN(0675)
FAN(0676)
FAN(0677)
FAN(0678)
FAN(0679)
FAN(0680)
FAN(0681)
FAN(0682)
FAN(0683)
FAN(0684)
FAN(0685)
FAN(0686)
FAN(0687)
FAN(0688)
FAN(0689)
FAN(0690)
FAN(0691)
FAN(0692)
FAN(0693)
FAN(0694)
FAN(0695)
FAN(0696)
FAN(0697)
FAN(0698)
FAN(0699)
FAN(0700)
FAN(0701)
FAN(0702)
FAN(0703)
FAN(0704)
FAN(0705)
FAN(0706)
FAN(0707)
FAN(0708)
FAN(0709)
FAN(0710)
FAN(0711)
FAN(0712)
FAN(0713)
FAN(0714)
FAN(0715)
FAN(0716)
FAN(0717)
FAN(0718)
FAN(0719)
FAN(0720)
FAN(0721)
FAN(0722)
FAN(0723)
FAN(0724)
FAN(0725)
FAN(0726)
FAN(0727)
FAN(0728)
FAN(0729)
FAN(0730)
FAN(0731)
FAN(0732)
FAN(0733)
FAN(0734)
FAN(0735)
FAN(0736)
FAN(0737)
FAN(0738)
FAN(0739)
FAN(0740)
FAN(0741)
FAN(0742)
FAN(0743)
FAN(0744)
FAN(0745)
FAN(0746)
FAN(0747)
FAN(0748)
FAN(0749)
FAN(0750)
FAN(0751)
FAN(0752)
FAN(0753)
FAN(0754)
FAN(0755)
FAN(0756)
FAN(0757)
FAN(0758)
FAN(0759)
FAN(0760)
FAN(0761)
FAN(0762)
FAN(0763)
FAN(0764)
FAN(0765)
FAN(0766)
FAN(0767)
FAN(0768)
FAN(0769)
FAN(0770)
FAN(0771)
FAN(0772)
FAN(0773)
FAN(0774)
FAN(0775)
FAN(0776)
FAN(0777)
FAN(0778)
FAN(0779)
FAN(0780)
FAN(0781)
FAN(0782)
FAN(0783)
FAN(0784)
FAN(0785)
FAN(0786)
FAN(0787)
FAN(0788)
FAN(0789)
FAN(0790)
FAN(0791)
FAN(0792)
FAN(0793)
FAN(0794)
FAN(0795)
FAN(0796)
FAN(0797)
FAN(0798)
FAN(0799)
FAN(0800)
FAN(0801)
FAN(0802)
FAN(0803)
FAN(0804)
FAN(0805)
FAN(0806)
FAN(0807)
FAN(0808)
FAN(0809)
FAN(0810)
FAN(0811)
FAN(0812)
FAN(0813)
FAN(0814)
FAN(0815)
FAN(0816)
FAN(0817)
FAN(0818)
FAN(0819)
FAN(0820)
FAN(0821)
FAN(0822)
FAN(0823)
FAN(0824)
FAN(0825)
FAN(0826)
FAN(0827)
FAN(0828)
FAN(0829)
FAN(0830)
FAN(0831)
FAN(0832)
FAN(0833)
FAN(0834)
FAN(0835)
FAN(0836)
FAN(0837)
FAN(0838)
FAN(0839)
FAN(0840)
FAN(0841)
FAN(0842)
FAN(0843)
FAN(0844)
FAN(0845)
FAN(0846)
FAN(0847)
FAN(0848)
FAN(0849)
FAN(0850)
FAN(0851)
FAN(0852)
FAN(0853)
FAN(0854)
FAN(0855)
FAN(0856)
FAN(0857)
FAN(0858)
FAN(0859)
FAN(0860)
FAN(0861)
FAN(0862)
FAN(0863)
FAN(0864)
FAN(0865)
FAN(0866)
FAN(0867)
FAN(0868)
FAN(0869)
FAN(0870)
FAN(0871)
FAN(0872)
FAN(0873)
FAN(0874)
FAN(0875)
FAN(0876)
FAN(0877)
FAN(0878)
FAN(0879)
FAN(0880)
FAN(0881)
FAN(0882)
FAN(0883)
FAN(0884)
FAN(0885)
FAN(0886)
FAN(0887)
FAN(0888)
FAN(0889)
FAN(0890)
FAN(0891)
FAN(0892)
FAN(0893)
FAN(0894)
FAN(0895)
FAN(0896)
FAN(0897)
FAN(0898)
FAN(0899)
FAN(0900)
FAN(0901)
FAN(0902)
FAN(0903)
FAN(0904)
FAN(0905)
FAN(0906)
FAN(0907)
FAN(0908)
FAN(0909)
FAN(0910)
FAN(0911)
FAN(0912)
FAN(0913)
FAN(0914)
FAN(0915)
FAN(0916)
FAN(0917)
FAN(0918)
FAN(0919)
FAN(0920)
FAN(0921)
FAN(0922)
FAN(0923)
FAN(0924)
FAN(0925)
FAN(0926)
FAN(0927)
FAN(0928)
FAN(0929)
FAN(0930)
FAN(0931)
FAN(0932)
FAN(0933)
FAN(0934)
FAN(0935)
FAN(0936)
FAN(0937)
FAN(0938)
FAN(0939)
FAN(0940)
FAN(0941)
FAN(0942)
FAN(0943)
FAN(0944)
FAN(0945)
FAN(0946)
FAN(0947)
FAN(0948)
FAN(0949)
FAN(0950)
FAN(0951)
FAN(0952)
FAN(0953)
FAN(0954)
FAN(0955)
FAN(0956)
FAN(0957)
FAN(0958)
FAN(0959)
FAN(0960)
FAN(0961)
FAN(0962)
FAN(0963)
FAN(0964)
FAN(0965)
FAN(0966)
FAN(0967)
FAN(0968)
FAN(0969)
FAN(0970)
FAN(0971)
FAN(0972)
FAN(0973)
FAN(0974)
FAN(0975)
FAN(0976)
FAN(0977)
FAN(0978)
FAN(0979)
FAN(0980)
FAN(0981)
FAN(0982)
FAN(0983)
FAN(0984)
FAN(0985)
FAN(0986)
FAN(0987)
FAN(0988)
FAN(0989)
FAN(0990)
FAN(0991)
FAN(0992)
FAN(0993)
FAN(0994)
FAN(0995)
FAN(0996)
FAN(0997)
FAN(0998)
FAN(0999)
FAN(1000)
FAN(1001)
FAN(1002)
FAN(1003)
FAN(1004)
FAN(1005)
FAN(1006)
FAN(1007)
FAN(1008)
FAN(1009)
FAN(1010)
FAN(1011)
FAN(1012)
FAN(1013)
FAN(1014)
FAN(1015)
FAN(1016)
FAN(1017)
FAN(1018)
FAN(1019)
FAN(1020)
FAN(1021)
FAN(1022)
FAN(1023)
#undef FAN

/* In the order a read calls them: ringtrace_fan_NNNN is fan[NNNN]. */
static void (*const fan[])(void) = {
	ringtrace_fan_0000, ringtrace_fan_0001, ringtrace_fan_0002, ringtrace_fan_0003,
	ringtrace_fan_0004, ringtrace_fan_0005, ringtrace_fan_0006, ringtrace_fan_0007,
	ringtrace_fan_0008, ringtrace_fan_0009, ringtrace_fan_0010, ringtrace_fan_0011,
	ringtrace_fan_0012, ringtrace_fan_0013, ringtrace_fan_0014, ringtrace_fan_0015,
	ringtrace_fan_0016, ringtrace_fan_0017, ringtrace_fan_0018, ringtrace_fan_0019,
	ringtrace_fan_0020, ringtrace_fan_0021, ringtrace_fan_0022, ringtrace_fan_0023,
	ringtrace_fan_0024, ringtrace_fan_0025, ringtrace_fan_0026, ringtrace_fan_0027,
	ringtrace_fan_0028, ringtrace_fan_0029, ringtrace_fan_0030, ringtrace_fan_0031,
	ringtrace_fan_0032, ringtrace_fan_0033, ringtrace_fan_0034, ringtrace_fan_0035,
	ringtrace_fan_0036, ringtrace_fan_0037, ringtrace_fan_0038, ringtrace_fan_0039,
	ringtrace_fan_0040, ringtrace_fan_0041, ringtrace_fan_0042, ringtrace_fan_0043,
	ringtrace_fan_0044, ringtrace_fan_0045, ringtrace_fan_0046, ringtrace_fan_0047,
	ringtrace_fan_0048, ringtrace_fan_0049, ringtrace_fan_0050, ringtrace_fan_0051,
	ringtrace_fan_0052, ringtrace_fan_0053, ringtrace_fan_0054, ringtrace_fan_0055,
	ringtrace_fan_0056, ringtrace_fan_0057, ringtrace_fan_0058, ringtrace_fan_0059,
	ringtrace_fan_0060, ringtrace_fan_0061, ringtrace_fan_0062, ringtrace_fan_0063,
	ringtrace_fan_0064, ringtrace_fan_0065, ringtrace_fan_0066, ringtrace_fan_0067,
	ringtrace_fan_0068, ringtrace_fan_0069, ringtrace_fan_0070, ringtrace_fan_0071,
	ringtrace_fan_0072, ringtrace_fan_0073, ringtrace_fan_0074, ringtrace_fan_0075,
	ringtrace_fan_0076, ringtrace_fan_0077, ringtrace_fan_0078, ringtrace_fan_0079,
	ringtrace_fan_0080, ringtrace_fan_0081, ringtrace_fan_0082, ringtrace_fan_0083,
	ringtrace_fan_0084, ringtrace_fan_0085, ringtrace_fan_0086, ringtrace_fan_0087,
	ringtrace_fan_0088, ringtrace_fan_0089, ringtrace_fan_0090, ringtrace_fan_0091,
	ringtrace_fan_0092, ringtrace_fan_0093, ringtrace_fan_0094, ringtrace_fan_0095,
	ringtrace_fan_0096, ringtrace_fan_0097, ringtrace_fan_0098, ringtrace_fan_0099,
	ringtrace_fan_0100, ringtrace_fan_0101, ringtrace_fan_0102, ringtrace_fan_0103,
	ringtrace_fan_0104, ringtrace_fan_0105, ringtrace_fan_0106, ringtrace_fan_0107,
	ringtrace_fan_0108, ringtrace_fan_0109, ringtrace_fan_0110, ringtrace_fan_0111,
	ringtrace_fan_0112, ringtrace_fan_0113, ringtrace_fan_0114, ringtrace_fan_0115,
	ringtrace_fan_0116, ringtrace_fan_0117, ringtrace_fan_0118, ringtrace_fan_0119,
	ringtrace_fan_0120, ringtrace_fan_0121, ringtrace_fan_0122, ringtrace_fan_0123,
	ringtrace_fan_0124, ringtrace_fan_0125, ringtrace_fan_0126, ringtrace_fan_0127,
	ringtrace_fan_0128, ringtrace_fan_0129, ringtrace_fan_0130, ringtrace_fan_0131,
	ringtrace_fan_0132, ringtrace_fan_0133, ringtrace_fan_0134, ringtrace_fan_0135,
	ringtrace_fan_0136, ringtrace_fan_0137, ringtrace_fan_0138, ringtrace_fan_0139,
	ringtrace_fan_0140, ringtrace_fan_0141, ringtrace_fan_0142, ringtrace_fan_0143,
	ringtrace_fan_0144, ringtrace_fan_0145, ringtrace_fan_0146, ringtrace_fan_0147,
	ringtrace_fan_0148, ringtrace_fan_0149, ringtrace_fan_0150, ringtrace_fan_0151,
	ringtrace_fan_0152, ringtrace_fan_0153, ringtrace_fan_0154, ringtrace_fan_0155,
	ringtrace_fan_0156, ringtrace_fan_0157, ringtrace_fan_0158, ringtrace_fan_0159,
	ringtrace_fan_0160, ringtrace_fan_0161, ringtrace_fan_0162, ringtrace_fan_0163,
	ringtrace_fan_0164, ringtrace_fan_0165, ringtrace_fan_0166, ringtrace_fan_0167,
	ringtrace_fan_0168, ringtrace_fan_0169, ringtrace_fan_0170, ringtrace_fan_0171,
	ringtrace_fan_0172, ringtrace_fan_0173, ringtrace_fan_0174, ringtrace_fan_0175,
	ringtrace_fan_0176, ringtrace_fan_0177, ringtrace_fan_0178, ringtrace_fan_0179,
	ringtrace_fan_0180, ringtrace_fan_0181, ringtrace_fan_0182, ringtrace_fan_0183,
	ringtrace_fan_0184, ringtrace_fan_0185, ringtrace_fan_0186, ringtrace_fan_0187,
	ringtrace_fan_0188, ringtrace_fan_0189, ringtrace_fan_0190, ringtrace_fan_0191,
	ringtrace_fan_0192, ringtrace_fan_0193, ringtrace_fan_0194, ringtrace_fan_0195,
	ringtrace_fan_0196, ringtrace_fan_0197, ringtrace_fan_0198, ringtrace_fan_0199,
	ringtrace_fan_0200, ringtrace_fan_0201, ringtrace_fan_0202, ringtrace_fan_0203,
	ringtrace_fan_0204, ringtrace_fan_0205, ringtrace_fan_0206, ringtrace_fan_0207,
	ringtrace_fan_0208, ringtrace_fan_0209, ringtrace_fan_0210, ringtrace_fan_0211,
	ringtrace_fan_0212, ringtrace_fan_0213, ringtrace_fan_0214, ringtrace_fan_0215,
	ringtrace_fan_0216, ringtrace_fan_0217, ringtrace_fan_0218, ringtrace_fan_0219,
	ringtrace_fan_0220, ringtrace_fan_0221, ringtrace_fan_0222, ringtrace_fan_0223,
	ringtrace_fan_0224, ringtrace_fan_0225, ringtrace_fan_0226, ringtrace_fan_0227,
	ringtrace_fan_0228, ringtrace_fan_0229, ringtrace_fan_0230, ringtrace_fan_0231,
	ringtrace_fan_0232, ringtrace_fan_0233, ringtrace_fan_0234, ringtrace_fan_0235,
	ringtrace_fan_0236, ringtrace_fan_0237, ringtrace_fan_0238, ringtrace_fan_0239,
	ringtrace_fan_0240, ringtrace_fan_0241, ringtrace_fan_0242, ringtrace_fan_0243,
	ringtrace_fan_0244, ringtrace_fan_0245, ringtrace_fan_0246, ringtrace_fan_0247,
	ringtrace_fan_0248, ringtrace_fan_0249, ringtrace_fan_0250, ringtrace_fan_0251,
	ringtrace_fan_0252, ringtrace_fan_0253, ringtrace_fan_0254, ringtrace_fan_0255,
	ringtrace_fan_0256, ringtrace_fan_0257, ringtrace_fan_0258, ringtrace_fan_0259,
	ringtrace_fan_0260, ringtrace_fan_0261, ringtrace_fan_0262, ringtrace_fan_0263,
	ringtrace_fan_0264, ringtrace_fan_0265, ringtrace_fan_0266, ringtrace_fan_0267,
	ringtrace_fan_0268, ringtrace_fan_0269, ringtrace_fan_0270, ringtrace_fan_0271,
	ringtrace_fan_0272, ringtrace_fan_0273, ringtrace_fan_0274, ringtrace_fan_0275,
	ringtrace_fan_0276, ringtrace_fan_0277, ringtrace_fan_0278, ringtrace_fan_0279,
	ringtrace_fan_0280, ringtrace_fan_0281, ringtrace_fan_0282, ringtrace_fan_0283,
	ringtrace_fan_0284, ringtrace_fan_0285, ringtrace_fan_0286, ringtrace_fan_0287,
	ringtrace_fan_0288, ringtrace_fan_0289, ringtrace_fan_0290, ringtrace_fan_0291,
	ringtrace_fan_0292, ringtrace_fan_0293, ringtrace_fan_0294, ringtrace_fan_0295,
	ringtrace_fan_0296, ringtrace_fan_0297, ringtrace_fan_0298, ringtrace_fan_0299,
	ringtrace_fan_0300, ringtrace_fan_0301, ringtrace_fan_0302, ringtrace_fan_0303,
	ringtrace_fan_0304, ringtrace_fan_0305, ringtrace_fan_0306, ringtrace_fan_0307,
	ringtrace_fan_0308, ringtrace_fan_0309, ringtrace_fan_0310, ringtrace_fan_0311,
	ringtrace_fan_0312, ringtrace_fan_0313, ringtrace_fan_0314, ringtrace_fan_0315,
	ringtrace_fan_0316, ringtrace_fan_0317, ringtrace_fan_0318, ringtrace_fan_0319,
	ringtrace_fan_0320, ringtrace_fan_0321, ringtrace_fan_0322, ringtrace_fan_0323,
	ringtrace_fan_0324, ringtrace_fan_0325, ringtrace_fan_0326, ringtrace_fan_0327,
	ringtrace_fan_0328, ringtrace_fan_0329, ringtrace_fan_0330, ringtrace_fan_0331,
	ringtrace_fan_0332, ringtrace_fan_0333, ringtrace_fan_0334, ringtrace_fan_0335,
	ringtrace_fan_0336, ringtrace_fan_0337, ringtrace_fan_0338, ringtrace_fan_0339,
	ringtrace_fan_0340, ringtrace_fan_0341, ringtrace_fan_0342, ringtrace_fan_0343,
	ringtrace_fan_0344, ringtrace_fan_0345, ringtrace_fan_0346, ringtrace_fan_0347,
	ringtrace_fan_0348, ringtrace_fan_0349, ringtrace_fan_0350, ringtrace_fan_0351,
	ringtrace_fan_0352, ringtrace_fan_0353, ringtrace_fan_0354, ringtrace_fan_0355,
	ringtrace_fan_0356, ringtrace_fan_0357, ringtrace_fan_0358, ringtrace_fan_0359,
	ringtrace_fan_0360, ringtrace_fan_0361, ringtrace_fan_0362, ringtrace_fan_0363,
	ringtrace_fan_0364, ringtrace_fan_0365, ringtrace_fan_0366, ringtrace_fan_0367,
	ringtrace_fan_0368, ringtrace_fan_0369, ringtrace_fan_0370, ringtrace_fan_0371,
	ringtrace_fan_0372, ringtrace_fan_0373, ringtrace_fan_0374, ringtrace_fan_0375,
	ringtrace_fan_0376, ringtrace_fan_0377, ringtrace_fan_0378, ringtrace_fan_0379,
	ringtrace_fan_0380, ringtrace_fan_0381, ringtrace_fan_0382, ringtrace_fan_0383,
	ringtrace_fan_0384, ringtrace_fan_0385, ringtrace_fan_0386, ringtrace_fan_0387,
	ringtrace_fan_0388, ringtrace_fan_0389, ringtrace_fan_0390, ringtrace_fan_0391,
	ringtrace_fan_0392, ringtrace_fan_0393, ringtrace_fan_0394, ringtrace_fan_0395,
	ringtrace_fan_0396, ringtrace_fan_0397, ringtrace_fan_0398, ringtrace_fan_0399,
	ringtrace_fan_0400, ringtrace_fan_0401, ringtrace_fan_0402, ringtrace_fan_0403,
	ringtrace_fan_0404, ringtrace_fan_0405, ringtrace_fan_0406, ringtrace_fan_0407,
	ringtrace_fan_0408, ringtrace_fan_0409, ringtrace_fan_0410, ringtrace_fan_0411,
	ringtrace_fan_0412, ringtrace_fan_0413, ringtrace_fan_0414, ringtrace_fan_0415,
	ringtrace_fan_0416, ringtrace_fan_0417, ringtrace_fan_0418, ringtrace_fan_0419,
	ringtrace_fan_0420, ringtrace_fan_0421, ringtrace_fan_0422, ringtrace_fan_0423,
	ringtrace_fan_0424, ringtrace_fan_0425, ringtrace_fan_0426, ringtrace_fan_0427,
	ringtrace_fan_0428, ringtrace_fan_0429, ringtrace_fan_0430, ringtrace_fan_0431,
	ringtrace_fan_0432, ringtrace_fan_0433, ringtrace_fan_0434, ringtrace_fan_0435,
	ringtrace_fan_0436, ringtrace_fan_0437, ringtrace_fan_0438, ringtrace_fan_0439,
	ringtrace_fan_0440, ringtrace_fan_0441, ringtrace_fan_0442, ringtrace_fan_0443,
	ringtrace_fan_0444, ringtrace_fan_0445, ringtrace_fan_0446, ringtrace_fan_0447,
	ringtrace_fan_0448, ringtrace_fan_0449, ringtrace_fan_0450, ringtrace_fan_0451,
	ringtrace_fan_0452, ringtrace_fan_0453, ringtrace_fan_0454, ringtrace_fan_0455,
	ringtrace_fan_0456, ringtrace_fan_0457, ringtrace_fan_0458, ringtrace_fan_0459,
	ringtrace_fan_0460, ringtrace_fan_0461, ringtrace_fan_0462, ringtrace_fan_0463,
	ringtrace_fan_0464, ringtrace_fan_0465, ringtrace_fan_0466, ringtrace_fan_0467,
	ringtrace_fan_0468, ringtrace_fan_0469, ringtrace_fan_0470, ringtrace_fan_0471,
	ringtrace_fan_0472, ringtrace_fan_0473, ringtrace_fan_0474, ringtrace_fan_0475,
	ringtrace_fan_0476, ringtrace_fan_0477, ringtrace_fan_0478, ringtrace_fan_0479,
	ringtrace_fan_0480, ringtrace_fan_0481, ringtrace_fan_0482, ringtrace_fan_0483,
	ringtrace_fan_0484, ringtrace_fan_0485, ringtrace_fan_0486, ringtrace_fan_0487,
	ringtrace_fan_0488, ringtrace_fan_0489, ringtrace_fan_0490, ringtrace_fan_0491,
	ringtrace_fan_0492, ringtrace_fan_0493, ringtrace_fan_0494, ringtrace_fan_0495,
	ringtrace_fan_0496, ringtrace_fan_0497, ringtrace_fan_0498, ringtrace_fan_0499,
	ringtrace_fan_0500, ringtrace_fan_0501, ringtrace_fan_0502, ringtrace_fan_0503,
	ringtrace_fan_0504, ringtrace_fan_0505, ringtrace_fan_0506, ringtrace_fan_0507,
	ringtrace_fan_0508, ringtrace_fan_0509, ringtrace_fan_0510, ringtrace_fan_0511,
	ringtrace_fan_0512, ringtrace_fan_0513, ringtrace_fan_0514, ringtrace_fan_0515,
	ringtrace_fan_0516, ringtrace_fan_0517, ringtrace_fan_0518, ringtrace_fan_0519,
	ringtrace_fan_0520, ringtrace_fan_0521, ringtrace_fan_0522, ringtrace_fan_0523,
	ringtrace_fan_0524, ringtrace_fan_0525, ringtrace_fan_0526, ringtrace_fan_0527,
	ringtrace_fan_0528, ringtrace_fan_0529, ringtrace_fan_0530, ringtrace_fan_0531,
	ringtrace_fan_0532, ringtrace_fan_0533, ringtrace_fan_0534, ringtrace_fan_0535,
	ringtrace_fan_0536, ringtrace_fan_0537, ringtrace_fan_0538, ringtrace_fan_0539,
	ringtrace_fan_0540, ringtrace_fan_0541, ringtrace_fan_0542, ringtrace_fan_0543,
	ringtrace_fan_0544, ringtrace_fan_0545, ringtrace_fan_0546, ringtrace_fan_0547,
	ringtrace_fan_0548, ringtrace_fan_0549, ringtrace_fan_0550, ringtrace_fan_0551,
	ringtrace_fan_0552, ringtrace_fan_0553, ringtrace_fan_0554, ringtrace_fan_0555,
	ringtrace_fan_0556, ringtrace_fan_0557, ringtrace_fan_0558, ringtrace_fan_0559,
	ringtrace_fan_0560, ringtrace_fan_0561, ringtrace_fan_0562, ringtrace_fan_0563,
	ringtrace_fan_0564, ringtrace_fan_0565, ringtrace_fan_0566, ringtrace_fan_0567,
	ringtrace_fan_0568, ringtrace_fan_0569, ringtrace_fan_0570, ringtrace_fan_0571,
	ringtrace_fan_0572, ringtrace_fan_0573, ringtrace_fan_0574, ringtrace_fan_0575,
	ringtrace_fan_0576, ringtrace_fan_0577, ringtrace_fan_0578, ringtrace_fan_0579,
	ringtrace_fan_0580, ringtrace_fan_0581, ringtrace_fan_0582, ringtrace_fan_0583,
	ringtrace_fan_0584, ringtrace_fan_0585, ringtrace_fan_0586, ringtrace_fan_0587,
	ringtrace_fan_0588, ringtrace_fan_0589, ringtrace_fan_0590, ringtrace_fan_0591,
	ringtrace_fan_0592, ringtrace_fan_0593, ringtrace_fan_0594, ringtrace_fan_0595,
	ringtrace_fan_0596, ringtrace_fan_0597, ringtrace_fan_0598, ringtrace_fan_0599,
	ringtrace_fan_0600, ringtrace_fan_0601, ringtrace_fan_0602, ringtrace_fan_0603,
	ringtrace_fan_0604, ringtrace_fan_0605, ringtrace_fan_0606, ringtrace_fan_0607,
	ringtrace_fan_0608, ringtrace_fan_0609, ringtrace_fan_0610, ringtrace_fan_0611,
	ringtrace_fan_0612, ringtrace_fan_0613, ringtrace_fan_0614, ringtrace_fan_0615,
	ringtrace_fan_0616, ringtrace_fan_0617, ringtrace_fan_0618, ringtrace_fan_0619,
	ringtrace_fan_0620, ringtrace_fan_0621, ringtrace_fan_0622, ringtrace_fan_0623,
	ringtrace_fan_0624, ringtrace_fan_0625, ringtrace_fan_0626, ringtrace_fan_0627,
	ringtrace_fan_0628, ringtrace_fan_0629, ringtrace_fan_0630, ringtrace_fan_0631,
	ringtrace_fan_0632, ringtrace_fan_0633, ringtrace_fan_0634, ringtrace_fan_0635,
	ringtrace_fan_0636, ringtrace_fan_0637, ringtrace_fan_0638, ringtrace_fan_0639,
	ringtrace_fan_0640, ringtrace_fan_0641, ringtrace_fan_0642, ringtrace_fan_0643,
	ringtrace_fan_0644, ringtrace_fan_0645, ringtrace_fan_0646, ringtrace_fan_0647,
	ringtrace_fan_0648, ringtrace_fan_0649, ringtrace_fan_0650, ringtrace_fan_0651,
	ringtrace_fan_0652, ringtrace_fan_0653, ringtrace_fan_0654, ringtrace_fan_0655,
	ringtrace_fan_0656, ringtrace_fan_0657, ringtrace_fan_0658, ringtrace_fan_0659,
	ringtrace_fan_0660, ringtrace_fan_0661, ringtrace_fan_0662, ringtrace_fan_0663,
	ringtrace_fan_0664, ringtrace_fan_0665, ringtrace_fan_0666, ringtrace_fan_0667,
	ringtrace_fan_0668, ringtrace_fan_0669, ringtrace_fan_0670, ringtrace_fan_0671,
	ringtrace_fan_0672, ringtrace_fan_0673, ringtrace_fan_0674, ringtrace_fan_0675,
	ringtrace_fan_0676, ringtrace_fan_0677, ringtrace_fan_0678, ringtrace_fan_0679,
	ringtrace_fan_0680, ringtrace_fan_0681, ringtrace_fan_0682, ringtrace_fan_0683,
	ringtrace_fan_0684, ringtrace_fan_0685, ringtrace_fan_0686, ringtrace_fan_0687,
	ringtrace_fan_0688, ringtrace_fan_0689, ringtrace_fan_0690, ringtrace_fan_0691,
	ringtrace_fan_0692, ringtrace_fan_0693, ringtrace_fan_0694, ringtrace_fan_0695,
	ringtrace_fan_0696, ringtrace_fan_0697, ringtrace_fan_0698, ringtrace_fan_0699,
	ringtrace_fan_0700, ringtrace_fan_0701, ringtrace_fan_0702, ringtrace_fan_0703,
	ringtrace_fan_0704, ringtrace_fan_0705, ringtrace_fan_0706, ringtrace_fan_0707,
	ringtrace_fan_0708, ringtrace_fan_0709, ringtrace_fan_0710, ringtrace_fan_0711,
	ringtrace_fan_0712, ringtrace_fan_0713, ringtrace_fan_0714, ringtrace_fan_0715,
	ringtrace_fan_0716, ringtrace_fan_0717, ringtrace_fan_0718, ringtrace_fan_0719,
	ringtrace_fan_0720, ringtrace_fan_0721, ringtrace_fan_0722, ringtrace_fan_0723,
	ringtrace_fan_0724, ringtrace_fan_0725, ringtrace_fan_0726, ringtrace_fan_0727,
	ringtrace_fan_0728, ringtrace_fan_0729, ringtrace_fan_0730, ringtrace_fan_0731,
	ringtrace_fan_0732, ringtrace_fan_0733, ringtrace_fan_0734, ringtrace_fan_0735,
	ringtrace_fan_0736, ringtrace_fan_0737, ringtrace_fan_0738, ringtrace_fan_0739,
	ringtrace_fan_0740, ringtrace_fan_0741, ringtrace_fan_0742, ringtrace_fan_0743,
	ringtrace_fan_0744, ringtrace_fan_0745, ringtrace_fan_0746, ringtrace_fan_0747,
	ringtrace_fan_0748, ringtrace_fan_0749, ringtrace_fan_0750, ringtrace_fan_0751,
	ringtrace_fan_0752, ringtrace_fan_0753, ringtrace_fan_0754, ringtrace_fan_0755,
	ringtrace_fan_0756, ringtrace_fan_0757, ringtrace_fan_0758, ringtrace_fan_0759,
	ringtrace_fan_0760, ringtrace_fan_0761, ringtrace_fan_0762, ringtrace_fan_0763,
	ringtrace_fan_0764, ringtrace_fan_0765, ringtrace_fan_0766, ringtrace_fan_0767,
	ringtrace_fan_0768, ringtrace_fan_0769, ringtrace_fan_0770, ringtrace_fan_0771,
	ringtrace_fan_0772, ringtrace_fan_0773, ringtrace_fan_0774, ringtrace_fan_0775,
	ringtrace_fan_0776, ringtrace_fan_0777, ringtrace_fan_0778, ringtrace_fan_0779,
	ringtrace_fan_0780, ringtrace_fan_0781, ringtrace_fan_0782, ringtrace_fan_0783,
	ringtrace_fan_0784, ringtrace_fan_0785, ringtrace_fan_0786, ringtrace_fan_0787,
	ringtrace_fan_0788, ringtrace_fan_0789, ringtrace_fan_0790, ringtrace_fan_0791,
	ringtrace_fan_0792, ringtrace_fan_0793, ringtrace_fan_0794, ringtrace_fan_0795,
	ringtrace_fan_0796, ringtrace_fan_0797, ringtrace_fan_0798, ringtrace_fan_0799,
	ringtrace_fan_0800, ringtrace_fan_0801, ringtrace_fan_0802, ringtrace_fan_0803,
	ringtrace_fan_0804, ringtrace_fan_0805, ringtrace_fan_0806, ringtrace_fan_0807,
	ringtrace_fan_0808, ringtrace_fan_0809, ringtrace_fan_0810, ringtrace_fan_0811,
	ringtrace_fan_0812, ringtrace_fan_0813, ringtrace_fan_0814, ringtrace_fan_0815,
	ringtrace_fan_0816, ringtrace_fan_0817, ringtrace_fan_0818, ringtrace_fan_0819,
	ringtrace_fan_0820, ringtrace_fan_0821, ringtrace_fan_0822, ringtrace_fan_0823,
	ringtrace_fan_0824, ringtrace_fan_0825, ringtrace_fan_0826, ringtrace_fan_0827,
	ringtrace_fan_0828, ringtrace_fan_0829, ringtrace_fan_0830, ringtrace_fan_0831,
	ringtrace_fan_0832, ringtrace_fan_0833, ringtrace_fan_0834, ringtrace_fan_0835,
	ringtrace_fan_0836, ringtrace_fan_0837, ringtrace_fan_0838, ringtrace_fan_0839,
	ringtrace_fan_0840, ringtrace_fan_0841, ringtrace_fan_0842, ringtrace_fan_0843,
	ringtrace_fan_0844, ringtrace_fan_0845, ringtrace_fan_0846, ringtrace_fan_0847,
	ringtrace_fan_0848, ringtrace_fan_0849, ringtrace_fan_0850, ringtrace_fan_0851,
	ringtrace_fan_0852, ringtrace_fan_0853, ringtrace_fan_0854, ringtrace_fan_0855,
	ringtrace_fan_0856, ringtrace_fan_0857, ringtrace_fan_0858, ringtrace_fan_0859,
	ringtrace_fan_0860, ringtrace_fan_0861, ringtrace_fan_0862, ringtrace_fan_0863,
	ringtrace_fan_0864, ringtrace_fan_0865, ringtrace_fan_0866, ringtrace_fan_0867,
	ringtrace_fan_0868, ringtrace_fan_0869, ringtrace_fan_0870, ringtrace_fan_0871,
	ringtrace_fan_0872, ringtrace_fan_0873, ringtrace_fan_0874, ringtrace_fan_0875,
	ringtrace_fan_0876, ringtrace_fan_0877, ringtrace_fan_0878, ringtrace_fan_0879,
	ringtrace_fan_0880, ringtrace_fan_0881, ringtrace_fan_0882, ringtrace_fan_0883,
	ringtrace_fan_0884, ringtrace_fan_0885, ringtrace_fan_0886, ringtrace_fan_0887,
	ringtrace_fan_0888, ringtrace_fan_0889, ringtrace_fan_0890, ringtrace_fan_0891,
	ringtrace_fan_0892, ringtrace_fan_0893, ringtrace_fan_0894, ringtrace_fan_0895,
	ringtrace_fan_0896, ringtrace_fan_0897, ringtrace_fan_0898, ringtrace_fan_0899,
	ringtrace_fan_0900, ringtrace_fan_0901, ringtrace_fan_0902, ringtrace_fan_0903,
	ringtrace_fan_0904, ringtrace_fan_0905, ringtrace_fan_0906, ringtrace_fan_0907,
	ringtrace_fan_0908, ringtrace_fan_0909, ringtrace_fan_0910, ringtrace_fan_0911,
	ringtrace_fan_0912, ringtrace_fan_0913, ringtrace_fan_0914, ringtrace_fan_0915,
	ringtrace_fan_0916, ringtrace_fan_0917, ringtrace_fan_0918, ringtrace_fan_0919,
	ringtrace_fan_0920, ringtrace_fan_0921, ringtrace_fan_0922, ringtrace_fan_0923,
	ringtrace_fan_0924, ringtrace_fan_0925, ringtrace_fan_0926, ringtrace_fan_0927,
	ringtrace_fan_0928, ringtrace_fan_0929, ringtrace_fan_0930, ringtrace_fan_0931,
	ringtrace_fan_0932, ringtrace_fan_0933, ringtrace_fan_0934, ringtrace_fan_0935,
	ringtrace_fan_0936, ringtrace_fan_0937, ringtrace_fan_0938, ringtrace_fan_0939,
	ringtrace_fan_0940, ringtrace_fan_0941, ringtrace_fan_0942, ringtrace_fan_0943,
	ringtrace_fan_0944, ringtrace_fan_0945, ringtrace_fan_0946, ringtrace_fan_0947,
	ringtrace_fan_0948, ringtrace_fan_0949, ringtrace_fan_0950, ringtrace_fan_0951,
	ringtrace_fan_0952, ringtrace_fan_0953, ringtrace_fan_0954, ringtrace_fan_0955,
	ringtrace_fan_0956, ringtrace_fan_0957, ringtrace_fan_0958, ringtrace_fan_0959,
	ringtrace_fan_0960, ringtrace_fan_0961, ringtrace_fan_0962, ringtrace_fan_0963,
	ringtrace_fan_0964, ringtrace_fan_0965, ringtrace_fan_0966, ringtrace_fan_0967,
	ringtrace_fan_0968, ringtrace_fan_0969, ringtrace_fan_0970, ringtrace_fan_0971,
	ringtrace_fan_0972, ringtrace_fan_0973, ringtrace_fan_0974, ringtrace_fan_0975,
	ringtrace_fan_0976, ringtrace_fan_0977, ringtrace_fan_0978, ringtrace_fan_0979,
	ringtrace_fan_0980, ringtrace_fan_0981, ringtrace_fan_0982, ringtrace_fan_0983,
	ringtrace_fan_0984, ringtrace_fan_0985, ringtrace_fan_0986, ringtrace_fan_0987,
	ringtrace_fan_0988, ringtrace_fan_0989, ringtrace_fan_0990, ringtrace_fan_0991,
	ringtrace_fan_0992, ringtrace_fan_0993, ringtrace_fan_0994, ringtrace_fan_0995,
	ringtrace_fan_0996, ringtrace_fan_0997, ringtrace_fan_0998, ringtrace_fan_0999,
	ringtrace_fan_1000, ringtrace_fan_1001, ringtrace_fan_1002, ringtrace_fan_1003,
	ringtrace_fan_1004, ringtrace_fan_1005, ringtrace_fan_1006, ringtrace_fan_1007,
	ringtrace_fan_1008, ringtrace_fan_1009, ringtrace_fan_1010, ringtrace_fan_1011,
	ringtrace_fan_1012, ringtrace_fan_1013, ringtrace_fan_1014, ringtrace_fan_1015,
	ringtrace_fan_1016, ringtrace_fan_1017, ringtrace_fan_1018, ringtrace_fan_1019,
	ringtrace_fan_1020, ringtrace_fan_1021, ringtrace_fan_1022, ringtrace_fan_1023,
};

static_assert(ARRAY_SIZE(fan) == RINGTRACE_MAX_FUNCS);

static ssize_t fan_read(struct file *file, char __user *buf, size_t len,
			loff_t *pos)
{
	unsigned int i;
	size_t left;

	for (i = 0; i < ARRAY_SIZE(fan); i++)
		fan[i]();
	atomic64_inc(&fan_calls);
	left = clear_user(buf, len);
	if (left == len)
		return -EFAULT;
	return len - left;
}

static const struct file_operations fan_fops = {
	.owner	= THIS_MODULE,
	.read	= fan_read,
	.llseek	= noop_llseek,
};

static int fan_calls_get(void *data, u64 *val)
{
	*val = atomic64_read(&fan_calls);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(fan_calls_fops, fan_calls_get, NULL, "%llu\n");

static int __init fan_init(void)
{
	fan_dir = debugfs_create_dir("ringtrace_fanout", NULL);
	if (IS_ERR(fan_dir))
		return PTR_ERR(fan_dir);
	debugfs_create_file("fan", 0444, fan_dir, NULL, &fan_fops);
	debugfs_create_file_unsafe("calls", 0444, fan_dir, NULL,
				   &fan_calls_fops);
	return 0;
}

static void __exit fan_exit(void)
{
	debugfs_remove_recursive(fan_dir);
}

module_init(fan_init);
module_exit(fan_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace selftest: a read that calls 1024 marked functions");
