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
