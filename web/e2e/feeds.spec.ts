//! Blogs' RSS feeds in real Chromium: the demo journal's head points to its feed, which the
//! browser's own XML parser reads as RSS 2.0 listing the posts newest first, each linking to its
//! page; a members-only page has no feed and links to none.

import { expect, test } from '@playwright/test';

interface FeedItem {
  title: string;
  link: string;
  published: number;
}

test('the journal links to its feed, which lists its posts newest first', async ({ page, request }) => {
  await page.goto('/journal');
  const alternate = page.locator('head link[rel="alternate"][type="application/rss+xml"]');
  await expect(alternate).toHaveCount(1);
  const href = (await alternate.getAttribute('href')) ?? '';
  expect(new URL(href).pathname + new URL(href).search).toBe('/journal?format=rss');

  const answer = await request.get('/journal?format=rss');
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
  expect(answer.headers()['etag']).toMatch(/^"[0-9a-f]{32}"$/);
  const items = await page.evaluate((xml) => {
    const feed = new DOMParser().parseFromString(xml, 'application/xml');
    if (feed.querySelector('parsererror') || feed.documentElement.getAttribute('version') !== '2.0') return null;
    return [...feed.querySelectorAll('channel > item')].map((item) => ({
      title: item.querySelector('title')?.textContent ?? '',
      link: item.querySelector('link')?.textContent ?? '',
      published: Date.parse(item.querySelector('pubDate')?.textContent ?? ''),
    }));
  }, await answer.text());
  expect(items, 'the feed is well-formed RSS 2.0').not.toBeNull();
  const posts = items as FeedItem[];
  expect(posts.map((post) => post.title)).toEqual([
    'Caring for Handmade Ceramics',
    'What Lisbon Light Does to a Glaze',
    'Notes on Glaze Tests',
    'The First Firing of the Year',
  ]);
  const dates = posts.map((post) => post.published);
  expect(dates.every((date) => Number.isFinite(date))).toBe(true);
  expect([...dates].sort((a, b) => b - a)).toEqual(dates);

  const first = await page.goto(new URL(posts[0]!.link).pathname);
  expect(first?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Caring for Handmade Ceramics');
  await expect(page.locator('head link[rel="alternate"][type="application/rss+xml"]')).toHaveCount(1);
});

test('a members-only page has no feed and links to none', async ({ page, request }) => {
  await page.goto('/studio-notes');
  await expect(page.locator('head link[type="application/rss+xml"]')).toHaveCount(0);
  const answer = await request.get('/studio-notes?format=rss');
  expect(answer.status()).toBe(404);
  expect(await answer.text()).not.toContain('<rss');
});
