// SPDX-License-Identifier: GPL-2.0-only
//
// node speedscope.js FILE OUT.json [SCREENSHOT.png [VIEW]]
//
// Loads FILE into speedscope's built web app (the npm package's
// dist/release/index.html, offline) the way its own CLI does: a script
// calling speedscope.loadFileFromBase64(), named by #localProfilePath.
// Then, as a person would: key 3 (Sandwich), whose table lists every
// frame of the profile shown with its total and self weight; the Export
// button, whose file is everything speedscope imported (all profiles).
// Writes OUT.json: { sandwich: [[name, total, self]...], exported: ... }.
// An import failure (speedscope's alert "Unrecognized format!") ends it
// with status 2 and the alert's text, instead of hanging headless
// chromium. SCREENSHOT: the VIEW (1 Time Order, 2 Left Heavy, 3
// Sandwich; default 2) after the rest.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { openPage, die } = require('./browser');

const [file, out, shot, view] = process.argv.slice(2);
if (!out)
	die('usage: node speedscope.js FILE OUT.json [SCREENSHOT.png [VIEW]]');
const app = path.join(process.env.SPEEDSCOPE_DIR ||
	path.join(process.env.RINGTRACE_CACHE || '/var/cache/ringtrace',
		'browser/node_modules/speedscope'), 'dist/release/index.html');

(async () => {
	setTimeout(() => die('timed out'), 60000).unref();
	const { browser, page } = await openPage(1400, 3000, async (d) => {
		const msg = d.message();

		await d.dismiss();
		process.stderr.write('speedscope: ' + msg + '\n');
		process.exit(2);
	});
	// Keep what Export saves: the blob it hands to a download link.
	await page.evaluateOnNewDocument(() => {
		const create = URL.createObjectURL;

		URL.createObjectURL = function (blob) {
			window.ringtraceExport = blob;
			return create.call(URL, blob);
		};
		HTMLAnchorElement.prototype.click = function () {};
	});
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'speedscope-'));
	const loader = path.join(dir, 'load.js');
	fs.writeFileSync(loader, 'speedscope.loadFileFromBase64(' +
		JSON.stringify(path.basename(file)) + ', ' +
		JSON.stringify(fs.readFileSync(file).toString('base64')) + ');\n');
	await page.goto('file://' + app + '#localProfilePath=' + loader);
	const button = (label) => page.waitForFunction((l) =>
		[...document.querySelectorAll('div')].find((e) =>
			e.childElementCount <= 1 && e.textContent.trim().endsWith(l)),
		{ timeout: 30000 }, label);
	// The view switcher appears once a profile is imported.
	await page.waitForFunction(() => document.body.innerText.includes('Time Order'),
		{ timeout: 30000 });
	await page.keyboard.press('3');
	// The table's header comes before its rows: wait for the first row too
	// (a total with its share, as "1,234 (5.6%)" or "1.2ms (5.6%)";
	// reading right after the header found 0 rows in 1 of 4 runs).
	await page.waitForFunction(() => {
		const t = document.body.innerText.split('Symbol Name');
		return t.length > 1 && /\n\s*[0-9][^\n]* \([0-9.]+%\)/.test(t[1]);
	}, { timeout: 30000 });
	// Rows: total, self, name; numbers as "1,234 (5.6%)".
	const sandwich = await page.evaluate(() => {
		const cells = document.body.innerText.split('Symbol Name')[1]
			.split('\n').map((s) => s.trim()).filter((s) => s.length);
		const rows = [];
		const num = (s) => Number(s.replace(/ \(.*\)$/, '').replace(/,/g, ''));

		for (let i = 0; i + 2 < cells.length + 0 && /^[0-9,.]+ \(/.test(cells[i]); i += 3)
			rows.push([cells[i + 2], num(cells[i]), num(cells[i + 1])]);
		return rows;
	});
	const exp = await button('Export');
	await exp.click();
	await page.waitForFunction(() => window.ringtraceExport, { timeout: 30000 });
	const exported = JSON.parse(await page.evaluate(() => window.ringtraceExport.text()));
	fs.writeFileSync(out, JSON.stringify({ sandwich, exported }));
	if (shot) {
		await page.setViewport({ width: 1400, height: 800 });
		await page.keyboard.press(view || '2');
		await new Promise((r) => setTimeout(r, 500));
		await page.screenshot({ path: shot });
	}
	fs.rmSync(dir, { recursive: true });
	await browser.close();
})().catch((e) => die(String(e && e.stack || e)));
