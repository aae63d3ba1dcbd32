"""paused_gc: automatic garbage collection off while a model is parsed,
restored after, however the parse ends."""
import gc
import threading

import pytest

from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
from scenegraph.gc_pause import paused_gc
from scenegraph.multibody.parsing import ParsingError
from systems.framework import DiagramBuilder

TINY = '<robot name="tiny"><link name="a"/><link name="b"/>' \
       '<joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint></robot>'


@pytest.fixture(autouse=True)
def collector_enabled():
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_nested_blocks_resume_collection_when_the_last_ends():
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_the_program_disabled_stays_disabled():
    gc.disable()
    with paused_gc():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_concurrent_blocks_share_one_count():
    inside, release = threading.Event(), threading.Event()

    def parse_elsewhere():
        with paused_gc():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=parse_elsewhere)
    thread.start()
    inside.wait(5)
    with paused_gc():
        pass
    assert not gc.isenabled()        # the other block is still running
    release.set()
    thread.join(5)
    assert gc.isenabled()


def _parser():
    plant, _ = AddMultibodyPlantSceneGraph(DiagramBuilder(), 0.0)
    return plant, Parser(plant)


def test_add_models_parses_with_collection_paused_and_resumes_it():
    plant, parser = _parser()
    seen = []
    original = plant.AddRigidBody

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    plant.AddRigidBody = spy
    parser.AddModelsFromString(TINY, "urdf")
    assert seen == [False, False]
    assert gc.isenabled()


def test_a_failed_parse_resumes_collection():
    _, parser = _parser()
    with pytest.raises(ParsingError):
        parser.AddModelsFromString(TINY.replace('type="revolute"', 'type="bogus"'), "urdf")
    assert gc.isenabled()


class _Node:
    """A reference-cycle member that records its collection."""

    def __init__(self, collected):
        self.other = None
        self.collected = collected

    def __del__(self):
        self.collected.append(1)


def test_what_a_block_made_is_moved_to_the_oldest_generation_and_its_cycles_are_collected():
    collected = []
    with paused_gc():
        kept = [[k] for k in range(100)]
        a, b = _Node(collected), _Node(collected)
        a.other, b.other = b, a
        del a, b
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(item) in oldest for item in kept)
    assert gc.get_count()[0] < 50          # the young generation starts nearly empty
    assert gc.get_freeze_count() == 0      # nothing stays frozen
    gc.collect()
    assert collected == [1, 1]


def test_objects_the_program_froze_stay_frozen_and_young_objects_young():
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with paused_gc():
            young = [[k] for k in range(100)]
        assert gc.get_freeze_count() == frozen
        assert id(young[0]) not in {id(o) for o in gc.get_objects(generation=2)}
    finally:
        gc.unfreeze()


def test_a_collector_the_program_disabled_keeps_its_young_objects_young():
    gc.disable()
    with paused_gc():
        young = [[k] for k in range(100)]
    assert id(young[0]) in {id(o) for o in gc.get_objects(generation=0)}


def test_blocks_opened_without_promotion_leave_young_objects_young():
    with paused_gc(promote=False):
        young = [[k] for k in range(100)]
    assert id(young[0]) in {id(o) for o in gc.get_objects(generation=0)}
    with paused_gc(promote=False):
        with paused_gc():                  # one block asking is enough
            kept = [[k] for k in range(100)]
    assert id(kept[0]) in {id(o) for o in gc.get_objects(generation=2)}


def test_a_parse_leaves_its_objects_to_the_young_generations():
    plant, parser = _parser()
    gc.collect()
    parser.AddModelsFromString(TINY, "urdf")
    body = plant.GetBodyByName("b")
    assert id(body) not in {id(o) for o in gc.get_objects(generation=2)}
