// SPDX-License-Identifier: GPL-2.0-only
//
// Debian's chromium, headless, driven by puppeteer-core (both installed by
// scripts/install-deps; the npm packages in $CACHE/browser, found through
// NODE_PATH). Shared by flamegraph.js and speedscope.js.
'use strict';

const puppeteer = require('puppeteer-core');

// A page of a fresh headless chromium; every dialog (alert, prompt) goes
// to onDialog, so that none is left open: an unanswered alert() hangs a
// headless page for good.
async function openPage(width, height, onDialog) {
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		// root in CI and in containers: no user namespace sandbox.
		args: ['--no-sandbox', '--disable-dev-shm-usage',
			'--enable-unsafe-swiftshader'],
	});
	const page = await browser.newPage();
	await page.setViewport({ width, height });
	page.on('dialog', onDialog);
	return { browser, page };
}

// Fail with a message (and a non-zero status) rather than hang.
function die(msg) {
	process.stderr.write(msg + '\n');
	process.exit(1);
}

module.exports = { openPage, die };
