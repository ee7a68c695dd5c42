// SPDX-License-Identifier: GPL-2.0-only
//
// node flamegraph.js SVG FRAME REGEXP SCREENSHOT.png
//
// Opens ringtrace-cat's --flamegraph SVG in chromium and uses it as a
// person would, with the mouse: hover over the frame named FRAME, click
// it (zoom), click "Search" and answer the prompt with REGEXP, then takes
// a screenshot. Prints what the page showed, as JSON on one line:
//   hover      the status line while the pointer is on FRAME
//   zoomed     FRAME's width after the click, and the graph's full width
//   matched    the "Matched: N%" line after the search
//   highlighted  names of the frames the search coloured
'use strict';

const { openPage, die } = require('./browser');

const [svg, frameName, regexp, shot] = process.argv.slice(2);
if (!shot)
	die('usage: node flamegraph.js SVG FRAME REGEXP SCREENSHOT.png');

(async () => {
	let prompted = 0;
	const { browser, page } = await openPage(1200, 700, async (d) => {
		if (d.type() === 'prompt') {
			prompted++;
			await d.accept(regexp);
		} else {
			await d.dismiss();
			die('unexpected ' + d.type() + ': ' + d.message());
		}
	});
	setTimeout(() => die('timed out'), 60000).unref();
	await page.goto('file://' + svg);
	// The frame's <g>: its <title> starts with "FRAME (".
	const rectOf = (name) => page.evaluateHandle((n) => {
		for (const g of document.querySelectorAll('g')) {
			const t = g.querySelector('title');
			if (t && t.textContent.startsWith(n + ' ('))
				return g.querySelector('rect');
		}
		return null;
	}, name);
	const rect = await rectOf(frameName);
	if (!(await rect.evaluate((r) => r !== null)))
		die('no frame named ' + frameName);
	const status = () => page.$eval('#status', (e) => e.textContent);
	const full = await page.evaluate(() =>
		Math.max(...[...document.querySelectorAll('g rect')].map(
			(r) => parseFloat(r.getAttribute('width')))));

	await rect.hover();
	const hover = await status();
	await rect.click();
	const zoomed = parseFloat(await rect.evaluate((r) => r.getAttribute('width')));
	const search = await page.evaluateHandle(() =>
		[...document.querySelectorAll('text')].find((t) => t.textContent === 'Search'));
	await search.click();
	const matched = await page.$eval('#matched', (e) => e.textContent);
	const highlighted = await page.evaluate(() =>
		[...document.querySelectorAll('g')].filter((g) => {
			const r = g.querySelector('rect');
			return r && r.getAttribute('fill') === 'rgb(230,0,230)';
		}).map((g) => g.querySelector('title').textContent.replace(/ \(.*$/, '')));
	// Back on the frame, so that the picture shows the hover line too.
	await rect.hover();
	await page.screenshot({ path: shot });
	console.log(JSON.stringify({ hover, zoomed, full, matched, highlighted, prompted }));
	await browser.close();
})().catch((e) => die(String(e && e.stack || e)));
