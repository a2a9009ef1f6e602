"""The shared box geometry: what "overlap", "inside" and IoU mean for every stage."""
import pytest

from redactor.box_geometry import area, inside, intersection, iou, overlap_share, overlaps


def test_area_of_a_box_and_of_an_empty_one():
    assert area((10, 20, 40, 30)) == 300
    assert area((10, 20, 10, 30)) == 0
    assert area((40, 20, 10, 30)) == 0   # a box drawn backwards has no area


@pytest.mark.parametrize("a, b, shared", [
    ((0, 0, 10, 10), (5, 5, 15, 15), 25),
    ((0, 0, 10, 10), (10, 0, 20, 10), 0),     # touching along an edge
    ((0, 0, 10, 10), (20, 20, 30, 30), 0),
    ((0, 0, 10, 10), (2, 2, 4, 4), 4),
])
def test_intersection_and_overlap_agree(a, b, shared):
    assert intersection(a, b) == intersection(b, a) == shared
    assert overlaps(a, b) is overlaps(b, a) is (shared > 0)


def test_an_empty_box_overlaps_nothing():
    assert not overlaps((5, 0, 5, 10), (0, 0, 10, 10))


def test_overlap_share_is_of_the_first_box():
    assert overlap_share((0, 0, 10, 10), (5, 0, 100, 100)) == 0.5
    assert overlap_share((5, 0, 100, 100), (0, 0, 10, 10)) == pytest.approx(50 / 9500)
    assert overlap_share((5, 5, 5, 5), (0, 0, 10, 10)) == 0.0


def test_iou():
    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
    assert iou((0, 0, 10, 10), (10, 10, 20, 20)) == 0.0
    assert iou((0, 0, 0, 0), (0, 0, 0, 0)) == 0.0


def test_inside_counts_shared_edges():
    assert inside((0, 0, 10, 10), (0, 0, 10, 10))
    assert inside((2, 2, 8, 8), (0, 0, 10, 10))
    assert not inside((2, 2, 11, 8), (0, 0, 10, 10))
