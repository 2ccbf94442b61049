"""Written variants of a glossary name: an index after an acronym, a lower first letter, a hyphenated name closed."""

from service.explain import glossary, written_forms


def _found(text: str) -> dict[str, str]:
    return {m.entry["id"]: m.found_as for m in glossary.load().find(text, extended=True)}


def test_an_indexed_acronym_names_the_acronym_without_its_index():
    found = _found("Each worker pins GPUj to NICj on the same PCIe switch.")
    assert found.get("nic") == "NIC"
    assert written_forms.stems("NICj") == ("NIC",)


def test_an_index_after_an_acronym_is_a_cue_for_its_context_words():
    # "rails" is the network sense only beside a NIC or a switch: an indexed NIC is one
    assert "network-rail" in _found("We bind NICk to GPUk and spread the traffic over four rails.")
    assert "network-rail" not in _found("The train ran on two rails through the valley.")


def test_an_acronym_with_a_lower_first_letter_is_the_acronym():
    assert _found("The card carries 24 GB of vRAM for the weights.").get("vram") == "vRAM"
    assert written_forms.stems("iPhone") == ()  # one capital after the first letter: a name of its own


def test_a_hyphenated_name_written_closed_is_found():
    assert "all-reduce" in _found("The gradients meet in one allreduce per step.")
    assert written_forms.closed_forms("multi-query attention") == ["multiquery attention"]


def test_a_short_closed_form_that_could_be_another_word_is_not_made():
    assert written_forms.closed_forms("co-op") == []  # "coop" is another word
    assert written_forms.closed_forms("ZeRO-3") == []  # not letters only
