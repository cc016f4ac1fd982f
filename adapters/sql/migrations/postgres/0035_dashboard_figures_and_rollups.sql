-- Issue 18's further dashboard figures and its speed on a year of data.
--
-- A page view's campaign (`source / medium / campaign` from the landing address's utm tags)
-- and device class (mobile, tablet or desktop), decided when the row is written, each with an
-- index for the dashboard's range queries like those of migration 0030.
ALTER TABLE analytics_events ADD COLUMN campaign TEXT;
ALTER TABLE analytics_events ADD COLUMN device TEXT;
CREATE INDEX analytics_events_kind_day_campaign ON analytics_events (kind, day, campaign);
CREATE INDEX analytics_events_kind_day_device ON analytics_events (kind, day, device);

-- Daily roll-ups of metric values, from which a percentile is read exactly without sorting a
-- range's values: each value falls in the bucket with the greatest lower bound not above it
-- (about 10 % wide, 24 per power of ten from 0.0001 to 10,000,000; bucket 0 holds what is
-- below 0). A percentile sums the buckets' counts over the range, finds the bucket holding
-- its rank, and sorts only that bucket's raw rows. The bounds are data, so the database
-- buckets a value itself and the roll-up cannot disagree with the raw rows.
CREATE TABLE analytics_metric_buckets (
    bucket BIGINT PRIMARY KEY,
    lower DOUBLE PRECISION NOT NULL
);

INSERT INTO analytics_metric_buckets (bucket, lower) VALUES
    (0, -1.7976931348623157e308), (1, 0), (2, 0.0001), (3, 0.00011), (4, 0.000121),
    (5, 0.000133), (6, 0.000147), (7, 0.000162), (8, 0.000178), (9, 0.000196), (10, 0.000215),
    (11, 0.000237), (12, 0.000261), (13, 0.000287), (14, 0.000316), (15, 0.000348),
    (16, 0.000383), (17, 0.000422), (18, 0.000464), (19, 0.000511), (20, 0.000562),
    (21, 0.000619), (22, 0.000681), (23, 0.00075), (24, 0.000825), (25, 0.000909), (26, 0.001),
    (27, 0.0011), (28, 0.00121), (29, 0.00133), (30, 0.00147), (31, 0.00162), (32, 0.00178),
    (33, 0.00196), (34, 0.00215), (35, 0.00237), (36, 0.00261), (37, 0.00287), (38, 0.00316),
    (39, 0.00348), (40, 0.00383), (41, 0.00422), (42, 0.00464), (43, 0.00511), (44, 0.00562),
    (45, 0.00619), (46, 0.00681), (47, 0.0075), (48, 0.00825), (49, 0.00909), (50, 0.01),
    (51, 0.011), (52, 0.0121), (53, 0.0133), (54, 0.0147), (55, 0.0162), (56, 0.0178),
    (57, 0.0196), (58, 0.0215), (59, 0.0237), (60, 0.0261), (61, 0.0287), (62, 0.0316),
    (63, 0.0348), (64, 0.0383), (65, 0.0422), (66, 0.0464), (67, 0.0511), (68, 0.0562),
    (69, 0.0619), (70, 0.0681), (71, 0.075), (72, 0.0825), (73, 0.0909), (74, 0.1), (75, 0.11),
    (76, 0.121), (77, 0.133), (78, 0.147), (79, 0.162), (80, 0.178), (81, 0.196), (82, 0.215),
    (83, 0.237), (84, 0.261), (85, 0.287), (86, 0.316), (87, 0.348), (88, 0.383), (89, 0.422),
    (90, 0.464), (91, 0.511), (92, 0.562), (93, 0.619), (94, 0.681), (95, 0.75), (96, 0.825),
    (97, 0.909), (98, 1), (99, 1.1), (100, 1.21), (101, 1.33), (102, 1.47), (103, 1.62),
    (104, 1.78), (105, 1.96), (106, 2.15), (107, 2.37), (108, 2.61), (109, 2.87), (110, 3.16),
    (111, 3.48), (112, 3.83), (113, 4.22), (114, 4.64), (115, 5.11), (116, 5.62), (117, 6.19),
    (118, 6.81), (119, 7.5), (120, 8.25), (121, 9.09), (122, 10), (123, 11), (124, 12.1),
    (125, 13.3), (126, 14.7), (127, 16.2), (128, 17.8), (129, 19.6), (130, 21.5), (131, 23.7),
    (132, 26.1), (133, 28.7), (134, 31.6), (135, 34.8), (136, 38.3), (137, 42.2), (138, 46.4),
    (139, 51.1), (140, 56.2), (141, 61.9), (142, 68.1), (143, 75), (144, 82.5), (145, 90.9),
    (146, 100), (147, 110), (148, 121), (149, 133), (150, 147), (151, 162), (152, 178),
    (153, 196), (154, 215), (155, 237), (156, 261), (157, 287), (158, 316), (159, 348),
    (160, 383), (161, 422), (162, 464), (163, 511), (164, 562), (165, 619), (166, 681),
    (167, 750), (168, 825), (169, 909), (170, 1000), (171, 1100), (172, 1210), (173, 1330),
    (174, 1470), (175, 1620), (176, 1780), (177, 1960), (178, 2150), (179, 2370), (180, 2610),
    (181, 2870), (182, 3160), (183, 3480), (184, 3830), (185, 4220), (186, 4640), (187, 5110),
    (188, 5620), (189, 6190), (190, 6810), (191, 7500), (192, 8250), (193, 9090), (194, 10000),
    (195, 11000), (196, 12100), (197, 13300), (198, 14700), (199, 16200), (200, 17800),
    (201, 19600), (202, 21500), (203, 23700), (204, 26100), (205, 28700), (206, 31600),
    (207, 34800), (208, 38300), (209, 42200), (210, 46400), (211, 51100), (212, 56200),
    (213, 61900), (214, 68100), (215, 75000), (216, 82500), (217, 90900), (218, 100000),
    (219, 110000), (220, 121000), (221, 133000), (222, 147000), (223, 162000), (224, 178000),
    (225, 196000), (226, 215000), (227, 237000), (228, 261000), (229, 287000), (230, 316000),
    (231, 348000), (232, 383000), (233, 422000), (234, 464000), (235, 511000), (236, 562000),
    (237, 619000), (238, 681000), (239, 750000), (240, 825000), (241, 909000), (242, 1000000),
    (243, 1100000), (244, 1210000), (245, 1330000), (246, 1470000), (247, 1620000),
    (248, 1780000), (249, 1960000), (250, 2150000), (251, 2370000), (252, 2610000),
    (253, 2870000), (254, 3160000), (255, 3480000), (256, 3830000), (257, 4220000),
    (258, 4640000), (259, 5110000), (260, 5620000), (261, 6190000), (262, 6810000),
    (263, 7500000), (264, 8250000), (265, 9090000);

-- One row per metric (kind and subject), day, page ('' for a row without a page) and bucket:
-- how many values fell in it. Every batch that writes metric values adds to it in the same
-- transaction, so it always equals the raw rows, today's included.
CREATE TABLE analytics_metric_days (
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    day BIGINT NOT NULL,
    page_path TEXT NOT NULL,
    bucket BIGINT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (kind, subject, day, page_path, bucket)
);

INSERT INTO analytics_metric_days (kind, subject, day, page_path, bucket, n)
SELECT kind, subject, day, page_path, bucket, COUNT(*) FROM (
    SELECT e.kind, e.subject, e.day, COALESCE(e.page_path, '') AS page_path,
        COALESCE((SELECT MAX(b.bucket) FROM analytics_metric_buckets b
            WHERE b.lower <= e.metric_value), 0) AS bucket
    FROM analytics_events e
    WHERE e.subject IS NOT NULL AND e.metric_value IS NOT NULL
) AS valued
GROUP BY kind, subject, day, page_path, bucket;

-- The one bucket a percentile sorts is read day by day from this index: the metric, each day
-- of the range, the bucket's values in order, and the page to filter by.
CREATE INDEX analytics_events_kind_subject_day_value
    ON analytics_events (kind, subject, day, metric_value, page_path);
