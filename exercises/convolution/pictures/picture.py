"""The task sheet's picture of convolution: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import matplotlib.pyplot as plt


def picture(ladder):
    inputs = ladder.generate("convolution")
    output, _ = ladder.solve("convolution", ["image", "kernel"])
    crop = 96
    figure, axes = plt.subplots(1, 3, figsize=(13, 4.5), gridspec_kw={"width_ratios": [1, 0.8, 1]})
    panels = [
        (inputs["image"][:crop, :crop], f"input image: top-left {crop}² of {inputs['image'].shape[0]}²"),
        (inputs["kernel"], f"input kernel: {inputs['kernel'].shape[0]}×{inputs['kernel'].shape[1]}"),
        (output[:crop, :crop], f"output: top-left {crop}² of {output.shape[0]}²"),
    ]
    for axis, (data, title) in zip(axes, panels):
        image = axis.imshow(data, cmap="magma", interpolation="nearest")
        figure.colorbar(image, ax=axis, fraction=0.046)
        axis.set_title(title)
        axis.set_xlabel("column")
        axis.set_ylabel("row")
    figure.tight_layout()
    return figure
